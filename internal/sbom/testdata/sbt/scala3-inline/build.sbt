// A Scala 3 service declaring its dependencies inline.
val http4sVersion = "0.23.12"

ThisBuild / scalaVersion := "3.1.3"
ThisBuild / organization := "com.example"

lazy val root = (project in file("."))
  .settings(
    name := "billing",
    resolvers += "internal" at "https://repo.example.com/maven2",
    libraryDependencies ++= Seq(
      "org.http4s" %% "http4s-ember-server" % http4sVersion,
      "org.http4s" %% "http4s-circe" % http4sVersion,
      "org.scala-lang" % "scala3-library_3" % scalaVersion.value,
      "ch.qos.logback" % "logback-classic" % "1.2.11" % Runtime,
      // "org.apache.logging.log4j" % "log4j-core" % "2.14.1",
      "org.typelevel" %%% "cats-core" % "2.8.0",
      "org.scalameta" %% "munit" % "0.7.29" % "test",
      "com.h2database" % "h2" % "[2.1,2.2)"
    )
  )
