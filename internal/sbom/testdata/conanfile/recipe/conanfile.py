from conan import ConanFile
from conan.tools.cmake import cmake_layout


class ImageToolRecipe(ConanFile):
    name = "imagetool"
    version = "0.3.0"
    settings = "os", "compiler", "build_type", "arch"
    generators = "CMakeDeps", "CMakeToolchain"
    requires = ("openssl/1.1.1k", "fmt/8.1.1")
    tool_requires = "cmake/3.22.6"
    # requires = "boost/1.70.0"

    def requirements(self):
        self.requires("libcurl/7.78.0")
        self.requires("spdlog/[>=1.9 <2]")
        if self.settings.os == "Windows":
            self.requires("zlib/1.2.12#revision1")

    def build_requirements(self):
        self.test_requires("gtest/1.11.0")

    def layout(self):
        cmake_layout(self)
