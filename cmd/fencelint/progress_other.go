//go:build !linux

package main

import "os"

// progressSignal is nil where fencelint does not drive lintcmd's info
// signal (lintcmd uses SIGINFO on the BSDs and macOS, none on Windows).
var progressSignal os.Signal

func sendProgressSignal() {}
