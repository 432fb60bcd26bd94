package main

import (
	"os"
	"syscall"
)

// progressSignal is lintcmd's info signal on Linux: it prints the
// runner's package counters when it receives it.
var progressSignal os.Signal = syscall.SIGUSR1

func sendProgressSignal() { syscall.Kill(os.Getpid(), syscall.SIGUSR1) }
