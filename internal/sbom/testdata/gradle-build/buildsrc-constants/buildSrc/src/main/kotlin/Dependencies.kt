object Versions {
    const val kotlin = "1.6.10"
    const val retrofit = "2.9.0"
    const val okhttp = "4.9.0"
    const val junit = "4.13.1"
}

object Libs {
    const val kotlinStdlib = "org.jetbrains.kotlin:kotlin-stdlib:${Versions.kotlin}"
    const val retrofit = "com.squareup.retrofit2:retrofit:${Versions.retrofit}"
    const val okhttpLogging = "com.squareup.okhttp3:logging-interceptor:${Versions.okhttp}"
    // const val gson = "com.google.code.gson:gson:2.8.6"
}

object TestLibs {
    const val junit = "junit:junit:${Versions.junit}"
}
