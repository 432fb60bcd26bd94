//go:build fencelintbench

// Command vetsalt wraps a go vet tool (VETSALT_REAL, default: the
// toolchain's own vet) and answers go vet's -V=full with an ID salted by
// VETSALT_ID (default: the current time). A new salt makes go vet miss its
// vet-result cache while the compile cache stays warm (a cold run); the
// same salt again replays the stored results (a warm run).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	real := os.Getenv("VETSALT_REAL")
	if real == "" {
		out, err := exec.Command("go", "env", "GOTOOLDIR").Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "vetsalt:", err)
			os.Exit(2)
		}
		real = filepath.Join(strings.TrimSpace(string(out)), "vet")
	}
	for _, a := range os.Args[1:] {
		if a == "-V=full" || a == "--V=full" {
			salt := os.Getenv("VETSALT_ID")
			if salt == "" {
				salt = fmt.Sprint(time.Now().UnixNano())
			}
			fmt.Printf("vetsalt version salted-%s-%s\n", salt, filepath.Base(real))
			return
		}
	}
	if err := syscall.Exec(real, append([]string{real}, os.Args[1:]...), os.Environ()); err != nil {
		fmt.Fprintln(os.Stderr, "vetsalt:", err)
		os.Exit(2)
	}
}
