package httpadapter

import (
	"slices"
	"strconv"
	"strings"
)

// costInfo is the cost and cost_details of an event, worked out from the
// stored cost values (wire §3).
type costInfo struct {
	display  string
	symbol   string
	code     string
	position string // "prefix", "postfix" or ""
	values   []string
	min      string // lowest numeric value, "" when none
}

type costValue struct {
	raw    string
	num    string // numeric string, "." decimal separator
	f      float64
	symbol string
	pos    string
}

// splitCost separates the numeric part of one cost value from its symbol.
func splitCost(raw string) (costValue, bool) {
	v := costValue{raw: raw}
	s := strings.TrimSpace(raw)
	start := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if start < 0 {
		return v, false
	}
	end := start
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' || s[end] == ',') {
		end++
	}
	numText := strings.TrimRight(s[start:end], ".,")
	end = start + len(numText)
	// "1,000.50" and "1,000" use ',' for thousands; "10,50" uses it as the
	// decimal separator (one or two digits after the last comma, no dot).
	if i := strings.LastIndexByte(numText, ','); i >= 0 && !strings.Contains(numText, ".") && len(numText)-i-1 <= 2 && strings.Count(numText, ",") == 1 {
		numText = numText[:i] + "." + numText[i+1:]
	}
	numText = strings.ReplaceAll(numText, ",", "")
	f, err := strconv.ParseFloat(numText, 64)
	if err != nil {
		return v, false
	}
	v.num, v.f = numText, f
	before, after := strings.TrimSpace(s[:start]), strings.TrimSpace(s[end:])
	switch {
	case before != "" && after == "":
		v.symbol, v.pos = before, "prefix"
	case after != "" && before == "":
		v.symbol, v.pos = after, "postfix"
	case before != "" && after != "":
		v.symbol, v.pos = before, "prefix"
	}
	return v, true
}

var currencyCodes = map[string]string{
	"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "R$": "BRL",
	"zł": "PLN", "₽": "RUB", "CHF": "CHF", "C$": "CAD", "A$": "AUD", "kr": "SEK",
}

func parseCost(raw []string) costInfo {
	var c costInfo
	var nums []costValue
	var texts []string
	for _, r := range raw {
		if strings.TrimSpace(r) == "" {
			continue
		}
		texts = append(texts, r)
		if v, ok := splitCost(r); ok {
			nums = append(nums, v)
		}
	}
	if len(nums) > 0 {
		c.symbol, c.position = nums[0].symbol, nums[0].pos
		for _, v := range nums[1:] {
			if v.symbol != c.symbol {
				c.symbol, c.position = "", ""
				break
			}
		}
		c.code = currencyCodes[c.symbol]
		if c.code == "" && len(c.symbol) == 3 && strings.ToUpper(c.symbol) == c.symbol {
			c.code = c.symbol
		}
		slices.SortStableFunc(nums, func(a, b costValue) int {
			switch {
			case a.f < b.f:
				return -1
			case a.f > b.f:
				return 1
			}
			return 0
		})
		for i, v := range nums {
			if i == 0 || v.f != nums[i-1].f {
				c.values = append(c.values, v.num)
			}
		}
		c.min = nums[0].num
	}
	switch {
	case len(texts) == 0:
	case len(texts) == 1:
		c.display = texts[0]
		if len(nums) == 1 && nums[0].f == 0 {
			c.display = "Free"
		}
	case len(nums) == 0:
		c.display = strings.Join(texts, ", ")
	default:
		lo, hi := nums[0], nums[len(nums)-1]
		c.display = c.endpoint(lo)
		if hi.f != lo.f {
			c.display += " – " + c.endpoint(hi)
		}
	}
	return c
}

// endpoint formats one end of a price range with the shared symbol.
func (c *costInfo) endpoint(v costValue) string {
	if v.f == 0 {
		return "Free"
	}
	switch c.position {
	case "prefix":
		return c.symbol + v.num
	case "postfix":
		return v.num + c.symbol
	}
	return v.num
}

func (c *costInfo) write(e *enc) {
	e.open('{')
	e.key("currency_symbol")
	e.str(c.symbol)
	e.key("currency_code")
	e.str(c.code)
	e.key("currency_position")
	e.str(c.position)
	e.key("values")
	e.open('[')
	for _, v := range c.values {
		e.str(v)
	}
	e.close(']')
	e.close('}')
}
