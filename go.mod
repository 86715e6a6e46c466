module github.com/erleah/erleah-agent

go 1.26.0

require (
	github.com/tmc/langchaingo v0.1.14
	golang.org/x/sync v0.24.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/caarlos0/env/v11 v11.4.2 // indirect
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkoukk/tiktoken-go v0.1.6 // indirect
)
