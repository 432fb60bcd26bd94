package rules

// Sources of values that are not fencing tokens however they are used:
// random and opaque identifiers and wall-clock readings. They never make a
// write fenced; the weaktoken analyzer reports them in token positions.

// UUID is google/uuid.
var UUID = Lib{
	Name: "uuid",
	Tokens: []Token{
		{Func: "github.com/google/uuid.New", Desc: "uuid.New()", Weak: WeakRandom, Why: "a UUID is random, not ordered across grants"},
		{Func: "github.com/google/uuid.NewString", Desc: "uuid.NewString()", Weak: WeakRandom, Why: "a UUID is random, not ordered across grants"},
		{Func: "github.com/google/uuid.NewRandom", Desc: "uuid.NewRandom()", Weak: WeakRandom, Why: "a UUID is random, not ordered across grants"},
	},
}

// CryptoRand is crypto/rand.
var CryptoRand = Lib{
	Name: "crypto/rand",
	Tokens: []Token{
		{Func: "crypto/rand.Read", Desc: "crypto/rand.Read", Weak: WeakRandom, Why: "random bytes are not ordered across grants"},
		{Func: "crypto/rand.Int", Desc: "crypto/rand.Int", Weak: WeakRandom, Why: "a random number is not ordered across grants"},
		{Func: "crypto/rand.Text", Desc: "crypto/rand.Text", Weak: WeakRandom, Why: "random text is not ordered across grants"},
	},
}

// MathRand is math/rand and math/rand/v2.
var MathRand = Lib{
	Name: "math/rand",
	Tokens: []Token{
		{Func: "math/rand.Int63", Desc: "rand.Int63()", Weak: WeakRandom, Why: "a random number is not ordered across grants"},
		{Func: "math/rand.Int", Desc: "rand.Int()", Weak: WeakRandom, Why: "a random number is not ordered across grants"},
		{Func: "math/rand.Uint64", Desc: "rand.Uint64()", Weak: WeakRandom, Why: "a random number is not ordered across grants"},
		{Func: "math/rand/v2.Int64", Desc: "rand.Int64()", Weak: WeakRandom, Why: "a random number is not ordered across grants"},
		{Func: "math/rand/v2.Uint64", Desc: "rand.Uint64()", Weak: WeakRandom, Why: "a random number is not ordered across grants"},
		{Func: "math/rand/v2.Int", Desc: "rand.Int()", Weak: WeakRandom, Why: "a random number is not ordered across grants"},
	},
}

// Time is the wall clock.
var Time = Lib{
	Name: "time",
	Tokens: []Token{
		{Func: "(time.Time).Unix", Desc: "time.Now().Unix()", Weak: WeakClock, Why: "wall-clock time is not monotonic across hosts and can step backwards"},
		{Func: "(time.Time).UnixNano", Desc: "time.Now().UnixNano()", Weak: WeakClock, Why: "wall-clock time is not monotonic across hosts and can step backwards"},
		{Func: "(time.Time).UnixMilli", Desc: "time.Now().UnixMilli()", Weak: WeakClock, Why: "wall-clock time is not monotonic across hosts and can step backwards"},
		{Func: "(time.Time).UnixMicro", Desc: "time.Now().UnixMicro()", Weak: WeakClock, Why: "wall-clock time is not monotonic across hosts and can step backwards"},
		{Func: "time.Since", Desc: "time.Since(...)", Weak: WeakClock, Why: "an elapsed time is a clock reading, not ordered across hosts or grants"},
		{Func: "(time.Time).Sub", Desc: "a time difference", Weak: WeakClock, Why: "an elapsed time is a clock reading, not ordered across hosts or grants"},
	},
}
