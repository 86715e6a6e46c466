module github.com/erleah/erleah-agent

go 1.26.0

require golang.org/x/sys v0.49.0

require golang.org/x/sync v0.24.0 // indirect
