package fence

import "testing"

// TestRepliesByNumber: only a script whose every reply is a number, with
// a "stale" and a "wrote" value and no path that falls off its end, is one
// whose rejection Err() cannot see.
func TestRepliesByNumber(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"if tonumber(ARGV[1]) <= tonumber(redis.call('GET', KEYS[1]) or '0') then return 0 end\nredis.call('SET', KEYS[1], ARGV[1])\nreturn 1", true},
		{"if a then return 0 end redis.call('SET', KEYS[1], ARGV[1]) return 1", true},
		{"if a then return -1 end\nredis.call('SET', KEYS[1], ARGV[1])\nreturn 1 -- wrote", true},
		{"redis.call('SET', KEYS[1], ARGV[1])\nreturn 1", false},                                      // one value: nothing to tell apart
		{"if a then return redis.error_reply('STALE') end\nreturn 1", false},                          // an error reply: Err() sees it
		{"if a then return {err='STALE'} end\nreturn 1", false},                                       // the table form of an error reply
		{"if a then return nil end\nredis.call('SET', KEYS[1], ARGV[1])\nreturn 1", false},            // nil: redis.Nil from Err()
		{"if a then return false end\nreturn 1", false},                                               // false is a nil reply too
		{"if a then return 0 end\nif b then redis.call('SET', KEYS[1], ARGV[1]) return 1 end", false}, // falls off its end
		{"if a then return 0 end\nreturn redis.call('SET', KEYS[1], ARGV[1])", false},                 // a reply we do not read
		{"if a then error('stale') end\nreturn 1", false},
		{"", false},
	} {
		if got := repliesByNumber(c.src); got != c.want {
			t.Errorf("repliesByNumber(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
