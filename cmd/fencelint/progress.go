package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fencelint/fencelint/internal/lazyregexp"
)

// Progress of the lint phase. lintcmd keeps counters of loaded and
// analysed packages (runner.Stats) but prints them only when the process
// receives its info signal (SIGUSR1 on Linux, as `kill -USR1` does for
// staticcheck). While linting with progress on, fencelint sends itself
// that signal twice a second, reads lintcmd's status lines from a pipe it
// puts in place of os.Stderr, and shows them as one line that it rewrites
// in place on a terminal (or prints each change, with -progress, when
// stderr is not a terminal). Every other line lintcmd writes to stderr
// passes through unchanged.

// lintcmd's status lines (honnef.co/go/tools v0.8.2 lintcmd/lint.go).
var (
	statusRE   = lazyregexp.New(`^Status: (.*)$`)
	packagesRE = lazyregexp.New(`^Packages: (\d+)/(\d+) initial, (\d+)/(\d+) total; Workers: \d+/\d+$`)
)

// progressLine turns one of lintcmd's status lines into fencelint's, or
// reports false for any other line.
func progressLine(line string) (string, bool) {
	if m := statusRE.FindStringSubmatch(line); m != nil {
		switch m[1] {
		case "loading package graph":
			return "fencelint: loading packages (go list)", true
		case "building action graph":
			return "fencelint: packages loaded, planning the analysis", true
		case "finalizing":
			return "fencelint: analysis done, collecting results", true
		}
		return "fencelint: " + m[1], true
	}
	if m := packagesRE.FindStringSubmatch(line); m != nil {
		// Dependencies are analysed too, for facts.
		return fmt.Sprintf("fencelint: analysed %s/%s packages (%s/%s named, the rest dependencies)", m[3], m[4], m[1], m[2]), true
	}
	return "", false
}

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// withProgress runs fn while showing lintcmd's progress on stderr; tty
// selects rewriting one line in place. Without an info signal on this
// platform it prints one line saying that linting started.
func withProgress(stderr *os.File, tty bool, fn func() int) int {
	if progressSignal == nil {
		fmt.Fprintln(stderr, "fencelint: linting (progress is not available on this platform)")
		return fn()
	}
	// Our own Notify keeps the signal from killing the process in the
	// moments lintcmd has no handler installed (before and after its run).
	mine := make(chan os.Signal, 1)
	signal.Notify(mine, progressSignal)
	defer signal.Stop(mine)
	go func() {
		for range mine {
		}
	}()

	r, w, err := os.Pipe()
	if err != nil {
		return fn()
	}
	p := &progress{out: stderr, tty: tty}
	var wg sync.WaitGroup
	wg.Go(func() { p.copy(r) })

	stop := make(chan struct{})
	var tick sync.WaitGroup
	tick.Go(func() {
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				sendProgressSignal()
			}
		}
	})

	// lintcmd's handler looks os.Stderr up when it prints, from its own
	// goroutine; it is swapped only while no signal is being sent.
	old := os.Stderr
	os.Stderr = w
	status := fn()
	close(stop)
	tick.Wait()
	// A signal sent just before stop may still be printed into the pipe;
	// lintcmd's handler writes synchronously, so give it a moment.
	time.Sleep(20 * time.Millisecond)
	os.Stderr = old
	w.Close()
	wg.Wait()
	r.Close()
	p.clear()
	return status
}

type progress struct {
	out   io.Writer
	tty   bool
	shown string // the progress line on screen (tty) or printed last
}

func (p *progress) copy(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if msg, ok := progressLine(line); ok {
			p.show(msg)
			continue
		}
		p.clear()
		fmt.Fprintln(p.out, line)
	}
}

func (p *progress) show(msg string) {
	if msg == p.shown {
		return
	}
	if p.tty {
		fmt.Fprintf(p.out, "\r\033[K%s", msg)
	} else {
		fmt.Fprintln(p.out, msg)
	}
	p.shown = msg
}

// clear removes the progress line from a terminal.
func (p *progress) clear() {
	if p.tty && p.shown != "" {
		fmt.Fprint(p.out, "\r\033[K")
	}
	p.shown = ""
}

// summary is the one line printed to stderr after text and stylish output:
// findings per analyzer, packages linted, time taken.
func summary(results []lintResult, showIgnored bool, elapsed time.Duration) string {
	type key struct{ pos, end, cat, msg string }
	seen := map[key]bool{}
	counts := map[string]int{}
	total := 0
	dirs := map[string]bool{}
	for _, res := range results {
		for _, f := range res.CheckedFiles {
			if i := strings.LastIndexAny(f, `/\`); i >= 0 {
				dirs[f[:i]] = true
			}
		}
		for _, d := range res.Diagnostics {
			if d.Severity == severityIgnored && !showIgnored {
				continue
			}
			k := key{d.Position.String(), d.End.String(), d.Category, d.Message}
			if seen[k] {
				continue // the same finding in another build configuration
			}
			seen[k] = true
			counts[d.Category]++
			total++
		}
	}
	var parts []string
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if ra, rb := contractRank(a), contractRank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("%s %d", name, counts[name]))
	}
	s := "fencelint: " + plural(total, "finding", "findings")
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprintf("%s in %s, %s", s, plural(len(dirs), "package", "packages"), elapsed.Round(10*time.Millisecond))
}
