package main

import (
	"bytes"
	"encoding/json"

	"honnef.co/go/tools/analysis/lint"
)

// addJSONURLs adds "url", the analyzer's documentation page (docs/NAME.md),
// to each line of lintcmd's -f json output whose code names one of as.
// lintcmd has no such field; the line is kept as lintcmd wrote it, field
// order included, with the url appended. Lines of other codes (compile,
// config, staticcheck) and anything that is not a JSON object pass
// through unchanged.
func addJSONURLs(data []byte, as []*lint.Analyzer) []byte {
	urls := map[string]string{}
	for _, a := range as {
		urls[a.Analyzer.Name] = a.Analyzer.URL
	}
	var out bytes.Buffer
	for line := range bytes.Lines(data) {
		body := bytes.TrimRight(line, "\n")
		var d struct {
			Code string `json:"code"`
			URL  *string
		}
		url := ""
		if len(body) > 1 && body[0] == '{' && body[len(body)-1] == '}' && json.Unmarshal(body, &d) == nil && d.URL == nil {
			url = urls[d.Code]
		}
		if url == "" {
			out.Write(line)
			continue
		}
		quoted, _ := json.Marshal(url)
		out.Write(body[:len(body)-1])
		out.WriteString(`,"url":`)
		out.Write(quoted)
		out.WriteString("}\n")
	}
	return out.Bytes()
}
