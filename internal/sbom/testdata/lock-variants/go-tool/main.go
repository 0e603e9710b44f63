package main

import "golang.org/x/mod/semver"

func main() { println(semver.IsValid("v1")) }
