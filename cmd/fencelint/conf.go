package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/fencelint/fencelint/analyzer"
	"honnef.co/go/tools/config"
)

// checkConfigNames looks for misspelt fencelint analyzer names in the
// checks lists of the staticcheck.conf files that apply to the linted
// files (lintcmd reads them from each package's directory up to the root,
// and ignores names it does not know, as it does on the command line).
// Such files are often shared with staticcheck and name its checks
// (ST1000, -SA*), so only a name within two edits of a fencelint
// analyzer, and not one itself, counts as a typo; the error names the
// file.
func checkConfigNames(results []lintResult) error {
	dirs := map[string]bool{}
	for _, res := range results {
		for _, f := range res.CheckedFiles {
			dirs[filepath.Dir(f)] = true
		}
	}
	seen := map[string]bool{}
	var files []string
	for dir := range dirs {
		for {
			p := filepath.Join(dir, config.ConfigName)
			if !seen[p] {
				seen[p] = true
				if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
					files = append(files, p)
				}
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	slices.Sort(files)
	known := analyzer.Names()
	for _, p := range files {
		var cfg struct {
			Checks []string `toml:"checks"`
		}
		if _, err := toml.DecodeFile(p, &cfg); err != nil {
			continue // lintcmd reports a malformed file itself (category config)
		}
		for _, c := range cfg.Checks {
			name := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(c), "-"))
			if slices.Contains(known, name) || strings.ContainsAny(name, "*?[") {
				continue
			}
			if s := analyzer.Suggest(name); s != "" {
				return fmt.Errorf("%s: checks names unknown analyzer %q; did you mean %s? (fencelint -list shows them)", shortName(p), c, s)
			}
		}
	}
	return nil
}
