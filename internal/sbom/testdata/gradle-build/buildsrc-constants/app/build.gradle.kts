plugins {
    id("com.android.application")
    kotlin("android")
}

dependencies {
    implementation(Libs.kotlinStdlib)
    implementation(Libs.retrofit)
    implementation(Libs.okhttpLogging)
    testImplementation(TestLibs.junit)
}
