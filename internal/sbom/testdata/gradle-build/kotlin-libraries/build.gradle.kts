plugins {
    `java-library`
}

apply(from = "gradle/dependencies.gradle.kts")

val libraries: Map<String, String> by extra

dependencies {
    implementation(libraries["bytebuddy"])
    implementation(libraries["bytebuddyagent"])
    compileOnly(libraries["junit4"])
    testImplementation(libraries["assertj"])
}
