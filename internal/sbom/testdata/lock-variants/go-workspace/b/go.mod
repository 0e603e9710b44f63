module example.com/ws/b

go 1.22.0

require (
	example.com/ws/a v0.0.0-00010101000000-000000000000
	github.com/google/uuid v1.6.0
)

replace example.com/ws/a => ../a
