package fence

import (
	"go/token"
	"slices"
	"sort"
)

// posIndex maps a position to the syntax node SSA recorded it for (a
// call's '(', a selector's Sel, a binary expression's operator). It is a
// sorted slice rather than a map: it is built for every function body of
// a relevant package, looked up only for the few nodes a verdict names,
// and a slice costs one allocation where a map costs one per growth.
type posIndex[N any] struct {
	pos   []token.Pos
	nodes []N
	dirty bool // appended out of order since the last sort
}

func (x *posIndex[N]) add(p token.Pos, n N) {
	if k := len(x.pos); k > 0 && x.pos[k-1] >= p {
		x.dirty = true // f(a)(b): the outer call is visited first
	}
	x.pos = append(x.pos, p)
	x.nodes = append(x.nodes, n)
}

// seal sorts the index; call it once, after the last add.
func (x *posIndex[N]) seal() {
	if !x.dirty {
		return
	}
	sort.Stable(byPos[N]{x})
	x.dirty = false
}

type byPos[N any] struct{ x *posIndex[N] }

func (b byPos[N]) Len() int           { return len(b.x.pos) }
func (b byPos[N]) Less(i, j int) bool { return b.x.pos[i] < b.x.pos[j] }
func (b byPos[N]) Swap(i, j int) {
	b.x.pos[i], b.x.pos[j] = b.x.pos[j], b.x.pos[i]
	b.x.nodes[i], b.x.nodes[j] = b.x.nodes[j], b.x.nodes[i]
}

// at returns the node recorded at p.
func (x *posIndex[N]) at(p token.Pos) (N, bool) {
	if i, ok := slices.BinarySearch(x.pos, p); ok {
		return x.nodes[i], true
	}
	var zero N
	return zero, false
}

// get is at without the ok result (the zero N when absent).
func (x *posIndex[N]) get(p token.Pos) N {
	n, _ := x.at(p)
	return n
}
