package fence

import (
	"strings"
	"testing"
)

func TestLuaWrongWay(t *testing.T) {
	const get = "local cur = tonumber(redis.call('GET', KEYS[2]) or '0')\n"
	for _, tc := range []struct {
		name, script string
		wrong        bool
	}{
		{"reject at or below", get + "if tonumber(ARGV[2]) <= cur then return 0 end\nredis.call('SET', KEYS[1], ARGV[1])", false},
		{"reject above", get + "if tonumber(ARGV[2]) > cur then return 0 end\nredis.call('SET', KEYS[1], ARGV[1])", true},
		{"reject when stored is lower", get + "if cur < tonumber(ARGV[2]) then return 0 end\nredis.call('SET', KEYS[1], ARGV[1])", true},
		{"write above, through locals", get + "local tok = tonumber(ARGV[2])\nif tok > cur then\n  redis.call('SET', KEYS[1], ARGV[1])\nend", false},
		{"write below", get + "local tok = tonumber(ARGV[2])\nif tok < cur then\n  redis.call('SET', KEYS[1], ARGV[1])\nend", true},
		{"write on equality", "if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('SET', KEYS[1], ARGV[1]) end", false},
		{"reject on error", get + "if tonumber(ARGV[2]) > cur then error('stale') end\nredis.call('SET', KEYS[1], ARGV[1])", true},
		{"compound condition: not read", get + "if cur and tonumber(ARGV[2]) > cur then return 0 end\nredis.call('SET', KEYS[1], ARGV[1])", false},
		{"no stored value: not read", "if tonumber(ARGV[2]) > 5 then return 0 end\nredis.call('SET', KEYS[1], ARGV[1])", false},
	} {
		got := luaWrongWay(tc.script, 2)
		if (got != "") != tc.wrong {
			t.Errorf("%s: luaWrongWay = %q, want wrong=%v", tc.name, got, tc.wrong)
		}
		if got != "" && !strings.HasPrefix(got, "the script lets a stale token through: ") {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}
