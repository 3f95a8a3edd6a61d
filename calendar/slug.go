package calendar

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Slugify makes a slug from a title or name: lower case, Latin accents folded
// (é→e, ß→ss, æ→ae, ø→o, …), letters and digits of other scripts kept, every
// other run of characters becomes "-", trimmed of "-", at most MaxSlugLen (200)
// bytes (cut on a rune boundary, then trailing "-" trimmed).
//
// Combining marks are dropped after a folded Latin letter (so a decomposed
// "e\u0301" folds like "é") but kept after letters of other scripts, whose
// words would otherwise be torn apart (Devanagari vowel signs, for instance).
// Invalid UTF-8 bytes count as separators. Slugify is idempotent, so a slug it
// produced is its own normal form.
func Slugify(s string) string {
	fold := slugFoldTable()
	var b strings.Builder
	b.Grow(min(len(s), MaxSlugLen+utf8.UTFMax))
	pending := false   // a separator run is waiting to be written before the next kept rune
	prevASCII := false // the last rune written was ASCII (a separator run resets it)
	prevKept := false  // the last input rune was written (not a separator)
	for _, r := range s {
		if b.Len() > MaxSlugLen {
			break // the rest would be cut anyway; stop early on huge input
		}
		var out string
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			out = string(r)
		case r >= 'A' && r <= 'Z':
			out = string(r + ('a' - 'A'))
		case unicode.Is(unicode.Mark, r):
			if prevKept && prevASCII {
				continue // accent on a Latin letter: fold it away
			}
			if !prevKept {
				pending = pending || b.Len() > 0
				continue
			}
			out = string(r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if f, ok := fold[r]; ok {
				out = f
			} else if l := unicode.ToLower(r); l != r {
				if f, ok := fold[l]; ok {
					out = f
				} else {
					out = string(l)
				}
			} else {
				out = string(r)
			}
		default:
			pending = pending || b.Len() > 0
			prevKept = false
			continue
		}
		if pending {
			b.WriteByte('-')
			pending = false
		}
		b.WriteString(out)
		prevKept = true
		prevASCII = out[len(out)-1] < utf8.RuneSelf
	}
	slug := b.String()
	if len(slug) > MaxSlugLen {
		slug = strings.TrimRight(truncateUTF8(slug, MaxSlugLen), "-")
	}
	return slug
}

// NormalizeSlug normalises a slug given by a user with the same rules as
// Slugify, so by-slug lookups are exact on the normalised form ("Jazz Night",
// "jazz_night" and "jazz-night" all name the slug "jazz-night").
func NormalizeSlug(s string) string {
	return Slugify(s)
}

// slugFoldTable maps Latin letters with diacritics, ligatures and special
// letters (Latin-1 Supplement, Latin Extended-A/B and Latin Extended
// Additional) to their lower-case ASCII spelling. It is kept as one string of
// space-separated "<letter><ascii>" entries, generated from Unicode NFKD
// decompositions plus hand-written entries for letters that do not decompose
// (ß, æ, ø, đ, ł, œ, þ, …), and parsed once on first use.
var slugFoldTable = sync.OnceValue(func() map[rune]string {
	m := make(map[rune]string, 640)
	for _, e := range strings.Fields(slugFoldEntries) {
		r, n := utf8.DecodeRuneInString(e)
		m[r] = e[n:]
	}
	return m
})

const slugFoldEntries = "" +
	"Àa Áa Âa Ãa Äa Åa Æae Çc Èe Ée Êe Ëe Ìi Íi Îi Ïi Ðd Ñn Òo Óo Ôo Õo Öo Øo " +
	"Ùu Úu Ûu Üu Ýy Þth ßss àa áa âa ãa äa åa æae çc èe ée êe ëe ìi íi îi ïi ðd " +
	"ñn òo óo ôo õo öo øo ùu úu ûu üu ýy þth ÿy Āa āa Ăa ăa Ąa ąa Ćc ćc Ĉc ĉc " +
	"Ċc ċc Čc čc Ďd ďd Đd đd Ēe ēe Ĕe ĕe Ėe ėe Ęe ęe Ěe ěe Ĝg ĝg Ğg ğg Ġg ġg " +
	"Ģg ģg Ĥh ĥh Ħh ħh Ĩi ĩi Īi īi Ĭi ĭi Įi įi İi ıi Ĳij ĳij Ĵj ĵj Ķk ķk ĸk Ĺl " +
	"ĺl Ļl ļl Ľl ľl Ŀl ŀl Łl łl Ńn ńn Ņn ņn Ňn ňn ŉn Ŋn ŋn Ōo ōo Ŏo ŏo Őo őo " +
	"Œoe œoe Ŕr ŕr Ŗr ŗr Řr řr Śs śs Ŝs ŝs Şs şs Šs šs Ţt ţt Ťt ťt Ŧt ŧt Ũu ũu " +
	"Ūu ūu Ŭu ŭu Ůu ůu Űu űu Ųu ųu Ŵw ŵw Ŷy ŷy Ÿy Źz źz Żz żz Žz žz ſs ƀb Ɓb " +
	"Ƃb ƃb Ƅb ƅb Ɔo Ƈc ƈc Ɖd Ɗd Ƌd ƌd Ǝe Ɛe Ƒf ƒf Ɠg ƕhv Ɨi Ƙk ƙk ƚl Ɲn ƞn Ɵo " +
	"Ơo ơo Ƣoi ƣoi Ƥp ƥp ƫt Ƭt ƭt Ʈt Ưu ưu Ƴy ƴy Ƶz ƶz Ǆdz ǅdz ǆdz Ǉlj ǈlj ǉlj Ǌnj ǋnj " +
	"ǌnj Ǎa ǎa Ǐi ǐi Ǒo ǒo Ǔu ǔu Ǖu ǖu Ǘu ǘu Ǚu ǚu Ǜu ǜu ǝe Ǟa ǟa Ǡa ǡa Ǣae ǣae " +
	"Ǥg ǥg Ǧg ǧg Ǩk ǩk Ǫo ǫo Ǭo ǭo ǰj Ǳdz ǲdz ǳdz Ǵg ǵg Ƕhv Ǹn ǹn Ǻa ǻa Ǽae ǽae Ǿo " +
	"ǿo Ȁa ȁa Ȃa ȃa Ȅe ȅe Ȇe ȇe Ȉi ȉi Ȋi ȋi Ȍo ȍo Ȏo ȏo Ȑr ȑr Ȓr ȓr Ȕu ȕu Ȗu " +
	"ȗu Șs șs Țt țt Ȟh ȟh Ƞn ȡd Ȣou ȣou Ȥz ȥz Ȧa ȧa Ȩe ȩe Ȫo ȫo Ȭo ȭo Ȯo ȯo Ȱo " +
	"ȱo Ȳy ȳy ȴl ȵn ȶt ȷj ȸdb ȹqp Ⱥa Ȼc ȼc Ƚl Ⱦt ȿs ɀz Ƀb Ʉu Ɇe ɇe Ɉj ɉj Ɋq ɋq " +
	"Ɍr ɍr Ɏy ɏy ɓb ɗd ɠg ɨi ʈt ʉu Ḁa ḁa Ḃb ḃb Ḅb ḅb Ḇb ḇb Ḉc ḉc Ḋd ḋd Ḍd ḍd " +
	"Ḏd ḏd Ḑd ḑd Ḓd ḓd Ḕe ḕe Ḗe ḗe Ḙe ḙe Ḛe ḛe Ḝe ḝe Ḟf ḟf Ḡg ḡg Ḣh ḣh Ḥh ḥh " +
	"Ḧh ḧh Ḩh ḩh Ḫh ḫh Ḭi ḭi Ḯi ḯi Ḱk ḱk Ḳk ḳk Ḵk ḵk Ḷl ḷl Ḹl ḹl Ḻl ḻl Ḽl ḽl " +
	"Ḿm ḿm Ṁm ṁm Ṃm ṃm Ṅn ṅn Ṇn ṇn Ṉn ṉn Ṋn ṋn Ṍo ṍo Ṏo ṏo Ṑo ṑo Ṓo ṓo Ṕp ṕp " +
	"Ṗp ṗp Ṙr ṙr Ṛr ṛr Ṝr ṝr Ṟr ṟr Ṡs ṡs Ṣs ṣs Ṥs ṥs Ṧs ṧs Ṩs ṩs Ṫt ṫt Ṭt ṭt " +
	"Ṯt ṯt Ṱt ṱt Ṳu ṳu Ṵu ṵu Ṷu ṷu Ṹu ṹu Ṻu ṻu Ṽv ṽv Ṿv ṿv Ẁw ẁw Ẃw ẃw Ẅw ẅw " +
	"Ẇw ẇw Ẉw ẉw Ẋx ẋx Ẍx ẍx Ẏy ẏy Ẑz ẑz Ẓz ẓz Ẕz ẕz ẖh ẗt ẘw ẙy ẛs ẞss Ạa ạa " +
	"Ảa ảa Ấa ấa Ầa ầa Ẩa ẩa Ẫa ẫa Ậa ậa Ắa ắa Ằa ằa Ẳa ẳa Ẵa ẵa Ặa ặa Ẹe ẹe " +
	"Ẻe ẻe Ẽe ẽe Ếe ếe Ềe ềe Ểe ểe Ễe ễe Ệe ệe Ỉi ỉi Ịi ịi Ọo ọo Ỏo ỏo Ốo ốo " +
	"Ồo ồo Ổo ổo Ỗo ỗo Ộo ộo Ớo ớo Ờo ờo Ởo ởo Ỡo ỡo Ợo ợo Ụu ụu Ủu ủu Ứu ứu " +
	"Ừu ừu Ửu ửu Ữu ữu Ựu ựu Ỳy ỳy Ỵy ỵy Ỷy ỷy Ỹy ỹy "
