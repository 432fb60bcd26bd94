package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"honnef.co/go/tools/analysis/lint"
)

// jsonLineFixer does what addJSONURLs(fixJSONSeverity(data)) does, in one
// pass over lintcmd's -f json output, writing each line as it goes. On a
// lock-heavy module with 80,001 findings the two passes decoded and
// re-encoded every line twice and held three copies of a 46 MB output
// (docs/performance.md, run 10: 1.7 s of 56 s of CPU).
//
// A line lintcmd wrote for one of our analyzers starts with
// {"code":"NAME","severity":"LEVEL", and fixJSONSeverity's decode and
// re-encode of it (same struct, same field order, same HTML escaping as
// lintcmd's encoder) gives the same bytes with only LEVEL replaced (except
// for \ufffd, see fast); so the
// fast path replaces LEVEL in place and appends the url field before the
// closing brace. Any line not of that shape (other codes, no severity, a
// url already present, anything that is not such an object) takes the
// two-pass path, line by line.
type jsonLineFixer struct {
	as []*lint.Analyzer
	// prefix[code] is `{"code":"CODE","severity":"`; level and url what the
	// two passes would write for code (url as a JSON string).
	prefix map[string][]byte
	level  map[string][]byte
	url    map[string][]byte
}

func newJSONLineFixer(as []*lint.Analyzer) *jsonLineFixer {
	f := &jsonLineFixer{as: as, prefix: map[string][]byte{}, level: map[string][]byte{}, url: map[string][]byte{}}
	for _, a := range as {
		name := a.Analyzer.Name
		code, err := json.Marshal(name)
		if err != nil || a.Analyzer.URL == "" {
			continue // the two-pass path decides
		}
		u, err := json.Marshal(a.Analyzer.URL)
		if err != nil {
			continue
		}
		level := severityLevel(a.Doc.Severity)
		if level == "" {
			continue
		}
		f.prefix[name] = append(append([]byte(`{"code":`), code...), `,"severity":"`...)
		f.level[name] = []byte(level)
		f.url[name] = u
	}
	return f
}

// write fixes every line of data and writes it to w.
func (f *jsonLineFixer) write(w io.Writer, data []byte) error {
	return f.copy(w, bytes.NewReader(data))
}

// copy fixes every line read from r and writes it to w, holding one line
// (and a buffer of each side) at a time.
func (f *jsonLineFixer) copy(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriterSize(w, 64<<10)
	var long []byte // a line longer than br's buffer, gathered
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, line...)
			continue
		}
		if long != nil {
			line, long = append(long, line...), nil
		}
		if len(line) > 0 && !f.fast(out, line) {
			out.Write(addJSONURLs(fixJSONSeverity(line, f.as), f.as))
		}
		if err == io.EOF {
			return out.Flush()
		}
		if err != nil {
			return err
		}
	}
}

// fast writes the fixed line to out and reports true when line has the
// shape described at jsonLineFixer.
func (f *jsonLineFixer) fast(out *bufio.Writer, line []byte) bool {
	const codeKey = `{"code":"`
	if !bytes.HasPrefix(line, []byte(codeKey)) || !bytes.HasSuffix(line, []byte("}\n")) {
		return false
	}
	end := bytes.IndexByte(line[len(codeKey):], '"')
	if end < 0 {
		return false
	}
	code := string(line[len(codeKey) : len(codeKey)+end])
	prefix, ok := f.prefix[code]
	if !ok || !bytes.HasPrefix(line, prefix) {
		return false
	}
	rest := line[len(prefix):]
	sevEnd := bytes.IndexByte(rest, '"')
	if sevEnd < 0 || bytes.IndexByte(rest[:sevEnd], '\\') >= 0 || !bytes.HasPrefix(rest[sevEnd:], []byte(`","location":`)) {
		return false
	}
	rest = rest[sevEnd:] // from the severity's closing quote to the end
	body := rest[:len(rest)-2]
	if !bytes.Contains(body, []byte(`},"end":{`)) || !bytes.Contains(body, []byte(`},"message":"`)) {
		return false // not every field lintcmd always writes: the two passes add them
	}
	if hasURLKey(body) {
		return false // a field addJSONURLs would see as present: let it decide
	}
	if bytes.Contains(body, []byte(`\ufffd`)) {
		// The encoder writes invalid UTF-8 as \ufffd; decoding and encoding
		// the message again writes U+FFFD itself, so the two passes change
		// the bytes: let them.
		return false
	}
	out.Write(prefix)
	out.Write(f.level[code])
	out.Write(body)
	out.WriteString(`,"url":`)
	out.Write(f.url[code])
	out.WriteString("}\n")
	return true
}

// hasURLKey reports whether b contains "url": in any case (json.Unmarshal
// matches keys case-insensitively); inside a JSON string a quote is
// escaped, so this finds keys only, or nothing.
func hasURLKey(b []byte) bool {
	for i := 0; i+6 <= len(b); i++ {
		if b[i] == '"' && b[i+1]|0x20 == 'u' && b[i+2]|0x20 == 'r' && b[i+3]|0x20 == 'l' && b[i+4] == '"' && b[i+5] == ':' {
			return true
		}
	}
	return false
}
