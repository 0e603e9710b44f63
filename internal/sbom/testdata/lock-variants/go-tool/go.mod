module example.com/gt

go 1.26.8

tool golang.org/x/tools/cmd/stringer

require golang.org/x/mod v0.23.0

require (
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/tools v0.30.0 // indirect
)
