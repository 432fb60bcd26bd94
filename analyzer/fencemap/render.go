package fencemap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats are the output formats of the fence map.
var Formats = []string{"json", "md", "dot", "mermaid"}

// Render writes m in format (one of Formats). blindOnly writes only the
// blind spots (fencelint -blindspots).
func Render(w io.Writer, m *Map, format string, blindOnly bool) error {
	var buf bytes.Buffer
	switch format {
	case "json":
		var v any = m
		if blindOnly {
			v = struct {
				Version    int          `json:"version"`
				BlindSpots []*BlindSpot `json:"blind_spots"`
			}{m.Version, m.BlindSpots}
		}
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
	case "md", "text":
		if !blindOnly {
			markdown(&buf, m)
		}
		blindMarkdown(&buf, m, blindOnly)
	case "dot":
		dot(&buf, m)
	case "mermaid":
		mermaid(&buf, m)
	default:
		return fmt.Errorf("unknown fence map format %q (want %s)", format, strings.Join(Formats, ", "))
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// markdown writes one table per lock, then the shared resources.
func markdown(b *bytes.Buffer, m *Map) {
	fmt.Fprintf(b, "# Fence map\n\n")
	if len(m.Locks) == 0 {
		fmt.Fprintf(b, "No lock scopes found.\n\n")
		for _, s := range m.BlindSpots {
			if s.Kind == "lock-call" {
				fmt.Fprintf(b, "Some calls may take a lock fencelint could not resolve: see the lock-call blind spots.\n\n")
				break
			}
		}
	}
	for _, l := range m.Locks {
		fmt.Fprintf(b, "## %s\n\n", mdText(l.ID))
		fmt.Fprintf(b, "- **lock:** %s (%s)\n", mdText(l.Name), l.Kind)
		if l.Source != "" {
			fmt.Fprintf(b, "- **made a lock by:** %s\n", mdText(l.Source))
		}
		fmt.Fprintf(b, "- **token:** %s\n", tokenText(l))
		fmt.Fprintf(b, "- **acquired at:** %s\n\n", siteList(l.Acquires))
		if len(l.Resources) == 0 {
			fmt.Fprintf(b, "No writes under this lock.\n\n")
			continue
		}
		fmt.Fprintf(b, "| resource | verdict | write | call |\n|---|---|---|---|\n")
		for _, r := range l.Resources {
			for i, w := range r.Writes {
				res, verdict := "", ""
				if i == 0 {
					res, verdict = mdText(r.Kind+" "+r.Name), "**"+r.Verdict+"**"
				}
				call := "`" + w.Call + "`"
				if w.Helper != "" {
					call += " (via " + mdText(w.Helper) + ")"
				}
				fmt.Fprintf(b, "| %s | %s | %s %s | %s |\n", res, verdict, w.Site, w.Verdict, call)
			}
		}
		b.WriteString("\n")
	}
	if len(m.Shared) > 0 {
		fmt.Fprintf(b, "## Resources written by more than one lock, or also outside a lock\n\n")
		fmt.Fprintf(b, "| resource | locks | writes outside any lock |\n|---|---|---|\n")
		for _, s := range m.Shared {
			fmt.Fprintf(b, "| %s | %s | %s |\n", mdText(s.Kind+" "+s.Name), mdText(strings.Join(s.Locks, "; ")), siteList(s.Unlocked))
		}
		b.WriteString("\n")
	}
}

func blindMarkdown(b *bytes.Buffer, m *Map, alone bool) {
	if alone {
		fmt.Fprintf(b, "# Blind spots\n\n")
	} else {
		fmt.Fprintf(b, "## Blind spots\n\n")
	}
	if len(m.BlindSpots) == 0 {
		fmt.Fprintf(b, "None: fencelint judged every call inside the lock scopes it found.\n")
		return
	}
	fmt.Fprintf(b, "Calls inside lock scopes that fencelint could not see into, most scopes first; a lock-call may take a lock, so no scope opens there.\n\n")
	fmt.Fprintf(b, "| call | kind | scopes | why | directive | where it goes |\n|---|---|---|---|---|---|\n")
	for _, s := range m.BlindSpots {
		dir := ""
		if s.Directive != "" {
			dir = "`" + s.Directive + "`"
		}
		fmt.Fprintf(b, "| %s `%s` | %s | %d | %s | %s | %s |\n", s.Site, s.Call, s.Kind, s.Scopes, mdText(s.Why), dir, mdText(s.DirectiveAt))
	}
}

func tokenText(l *Lock) string {
	switch l.TokenKind {
	case "none":
		return "none: the lock hands out no fencing token"
	case "weak":
		return fmt.Sprintf("`%s`, **not monotonic**: %s", l.Token, mdText(l.TokenWhy))
	case "monotonic":
		return fmt.Sprintf("`%s` (monotonic)", l.Token)
	}
	return "unknown"
}

func siteList(sites []Site) string {
	if len(sites) == 0 {
		return "-"
	}
	parts := make([]string, len(sites))
	for i, s := range sites {
		parts[i] = s.String()
	}
	return strings.Join(parts, ", ")
}

// mdText escapes what would break a table cell.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "*", `\*`, "_", `\_`).Replace(s)
}

// Graph node ids: l<N> for locks, r<N> for resources, in map order, so the
// text is stable. Resources are shared nodes: two locks writing one table
// point at the same node, which is what a reviewer must see.
type graph struct {
	resIDs   map[string]string
	resOrder []string
	resLabel map[string]string
	resRisk  map[string]bool
}

func newGraph(m *Map) *graph {
	g := &graph{resIDs: map[string]string{}, resLabel: map[string]string{}, resRisk: map[string]bool{}}
	for _, l := range m.Locks {
		for _, r := range l.Resources {
			k := r.Kind + "\x00" + r.Name
			if _, ok := g.resIDs[k]; !ok {
				g.resIDs[k] = fmt.Sprintf("r%d", len(g.resOrder)+1)
				g.resOrder = append(g.resOrder, k)
				g.resLabel[k] = r.Kind + "\n" + r.Name
			}
		}
	}
	for _, s := range m.Shared {
		g.resRisk[s.Kind+"\x00"+s.Name] = true
	}
	return g
}

func dot(b *bytes.Buffer, m *Map) {
	g := newGraph(m)
	b.WriteString("digraph fencemap {\n")
	b.WriteString("\trankdir=LR;\n\tnode [fontname=\"Helvetica\", fontsize=11];\n\tedge [fontname=\"Helvetica\", fontsize=10];\n")
	for i, l := range m.Locks {
		label := l.Name
		if l.Key != "" {
			label += "\n" + l.Key
		}
		label += "\ntoken: " + shortToken(l)
		color := "#dbeafe"
		if l.TokenKind != "monotonic" {
			color = "#fde68a"
		}
		fmt.Fprintf(b, "\tl%d [shape=box, style=\"rounded,filled\", fillcolor=%q, label=%s];\n", i+1, color, dotQuote(label))
	}
	for _, k := range g.resOrder {
		style := "shape=cylinder"
		if g.resRisk[k] {
			style += ", style=filled, fillcolor=\"#fecaca\", penwidth=2"
		}
		fmt.Fprintf(b, "\t%s [%s, label=%s];\n", g.resIDs[k], style, dotQuote(g.resLabel[k]))
	}
	for i, l := range m.Locks {
		for _, r := range l.Resources {
			color, style := edgeStyle(r.Verdict)
			fmt.Fprintf(b, "\tl%d -> %s [label=%q, color=%q, fontcolor=%q, style=%s];\n",
				i+1, g.resIDs[r.Kind+"\x00"+r.Name], fmt.Sprintf("%s (%d)", r.Verdict, len(r.Writes)), color, color, style)
		}
	}
	for _, s := range m.Shared {
		if len(s.Unlocked) == 0 {
			continue
		}
		k := s.Kind + "\x00" + s.Name
		if _, ok := g.resIDs[k]; !ok {
			continue
		}
		fmt.Fprintf(b, "\tnolock_%s [shape=plaintext, label=\"no lock\"];\n", g.resIDs[k])
		fmt.Fprintf(b, "\tnolock_%s -> %s [label=%q, color=\"#b91c1c\", fontcolor=\"#b91c1c\", style=dashed];\n",
			g.resIDs[k], g.resIDs[k], fmt.Sprintf("unlocked (%d)", len(s.Unlocked)))
	}
	b.WriteString("}\n")
}

func shortToken(l *Lock) string {
	switch l.TokenKind {
	case "monotonic":
		return l.Token
	case "weak":
		return l.Token + " (weak)"
	}
	return l.TokenKind
}

// protectedVerdict: every write of that verdict is protected, by its
// token (fenced) or by the session that holds the lock.
func protectedVerdict(verdict string) bool {
	return verdict == "fenced" || verdict == "session"
}

func edgeStyle(verdict string) (color, style string) {
	switch {
	case protectedVerdict(verdict):
		return "#15803d", "solid"
	case verdict == "unknown":
		return "#6b7280", "dotted"
	}
	return "#b91c1c", "bold"
}

func dotQuote(s string) string {
	q := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
	return `"` + q + `"`
}

func mermaid(b *bytes.Buffer, m *Map) {
	g := newGraph(m)
	b.WriteString("flowchart LR\n")
	for i, l := range m.Locks {
		label := l.Name
		if l.Key != "" {
			label += "<br/>" + l.Key
		}
		label += "<br/>token: " + shortToken(l)
		fmt.Fprintf(b, "  l%d[\"%s\"]\n", i+1, mermaidText(label))
	}
	for _, k := range g.resOrder {
		fmt.Fprintf(b, "  %s[(\"%s\")]\n", g.resIDs[k], mermaidText(strings.ReplaceAll(g.resLabel[k], "\n", "<br/>")))
	}
	edge := 0
	var red, green, grey []string
	for i, l := range m.Locks {
		for _, r := range l.Resources {
			arrow := "==>"
			if protectedVerdict(r.Verdict) {
				arrow = "-->"
			} else if r.Verdict == "unknown" {
				arrow = "-.->"
			}
			fmt.Fprintf(b, "  l%d %s|\"%s (%d)\"| %s\n", i+1, arrow, r.Verdict, len(r.Writes), g.resIDs[r.Kind+"\x00"+r.Name])
			switch {
			case protectedVerdict(r.Verdict):
				green = append(green, fmt.Sprint(edge))
			case r.Verdict == "unknown":
				grey = append(grey, fmt.Sprint(edge))
			default:
				red = append(red, fmt.Sprint(edge))
			}
			edge++
		}
	}
	for _, s := range m.Shared {
		k := s.Kind + "\x00" + s.Name
		id, ok := g.resIDs[k]
		if !ok || len(s.Unlocked) == 0 {
			continue
		}
		fmt.Fprintf(b, "  nolock_%s[\"no lock\"] -.->|\"unlocked (%d)\"| %s\n", id, len(s.Unlocked), id)
		red = append(red, fmt.Sprint(edge))
		edge++
	}
	var risky []string
	for _, k := range g.resOrder {
		if g.resRisk[k] {
			risky = append(risky, g.resIDs[k])
		}
	}
	if len(risky) > 0 {
		b.WriteString("  classDef shared fill:#fecaca,stroke:#b91c1c,stroke-width:2px\n")
		fmt.Fprintf(b, "  class %s shared\n", strings.Join(risky, ","))
	}
	if len(red) > 0 {
		fmt.Fprintf(b, "  linkStyle %s stroke:#b91c1c,stroke-width:2px\n", strings.Join(red, ","))
	}
	if len(green) > 0 {
		fmt.Fprintf(b, "  linkStyle %s stroke:#15803d\n", strings.Join(green, ","))
	}
	if len(grey) > 0 {
		fmt.Fprintf(b, "  linkStyle %s stroke:#6b7280\n", strings.Join(grey, ","))
	}
}

// mermaidText keeps a label inside its quotes.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;").Replace(s)
}
