//go:build tools

// Package lint pins Grafana's dashboard linter (a Go module) for .ci/run, which builds it with
// `go build -o DIR/dashboard-linter github.com/grafana/dashboard-linter` in this folder.
package lint

import _ "github.com/grafana/dashboard-linter"
