module example.com/ws/a

go 1.22.0

toolchain go1.22.5

require (
	github.com/pkg/errors v0.9.1
	golang.org/x/text v0.14.0
	github.com/sirupsen/logrus v1.9.0
)

require golang.org/x/sys v0.0.0-20220715151400-c0bba94af5f8 // indirect

replace github.com/sirupsen/logrus => github.com/myfork/logrus v1.9.4-fork

replace golang.org/x/text v0.14.0 => golang.org/x/text v0.15.0

exclude github.com/pkg/errors v0.9.0

retract v1.0.1
