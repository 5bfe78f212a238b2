package ui

import "slices"

// transcript is the conversation on screen: items top to bottom, drawn
// from the bottom up, so a frame costs what is visible, not what came
// before. It follows the newest line unless the person scrolled up.
type transcript struct {
	items  []item
	follow bool
	top    int // the first line shown when not following
	// held are the long items the last view showed; shown those this
	// one does. Long items keep their drawn lines only while shown.
	held, shown []longItem
}

func newTranscript() transcript { return transcript{follow: true} }

func (t *transcript) add(it item) { t.items = append(t.items, it) }

// insertAfter puts it right after anchor, or at the end when anchor is
// not on the transcript (any more).
func (t *transcript) insertAfter(anchor, it item) {
	for i := len(t.items) - 1; i >= 0; i-- {
		if t.items[i] == anchor {
			t.items = append(t.items[:i+1], append([]item{it}, t.items[i+1:]...)...)
			return
		}
	}
	t.add(it)
}

// gap says whether a blank line separates items[prev] from items[cur]
// below it: consecutive tool calls, the choices made at their prompts and
// short notes stay together.
func (t *transcript) gap(prev, cur int) bool {
	return !(compact(t.items[prev]) && compact(t.items[cur]))
}

// compact items are one-line records of what a turn did.
func compact(it item) bool {
	switch it := it.(type) {
	case *toolItem:
		return true
	case *noteItem:
		return it.kind == noteChoice || it.kind == noteInfo
	}
	return false
}

// longItem is an item too long to keep drawn: it counts its lines
// without holding them, draws a range of them when asked, and lets go of
// what it drew once released.
type longItem interface {
	item
	count(l *look, width int) int
	span(l *look, width, from, to int) []string
	release()
}

// measure returns how many lines it takes and, unless it is a long item,
// its lines.
func measure(it item, l *look, width int) (int, []string) {
	if li, ok := it.(longItem); ok {
		return li.count(l, width), nil
	}
	ls := it.lines(l, width)
	return len(ls), ls
}

// span returns the lines [from, to) of it, measured as ls, and notes a
// long item as shown.
func (t *transcript) span(it item, ls []string, l *look, width, from, to int) []string {
	if ls != nil {
		return ls[from:to]
	}
	li := it.(longItem)
	t.shown = append(t.shown, li)
	return li.span(l, width, from, to)
}

// view returns exactly height lines: the newest ones when following, else
// those from t.top; content shorter than the screen starts at the top.
// Long items shown in the view before and not now let go of their lines.
func (t *transcript) view(l *look, width, height int) []string {
	if height <= 0 {
		return nil
	}
	t.shown = t.shown[:0]
	var lines []string
	if t.follow {
		lines = t.bottom(l, width, height)
	} else {
		lines = t.window(l, width, t.top, height)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	for _, it := range t.held {
		if !slices.Contains(t.shown, it) {
			it.release()
		}
	}
	t.held, t.shown = t.shown, t.held[:0]
	return lines
}

// bottom collects the last height lines, walking items from the end.
func (t *transcript) bottom(l *look, width, height int) []string {
	var chunks [][]string
	n, below := 0, -1 // below: the item drawn under the current one
	for i := len(t.items) - 1; i >= 0 && n < height; i-- {
		c, ls := measure(t.items[i], l, width)
		if c == 0 {
			continue
		}
		if below >= 0 && t.gap(i, below) {
			chunks = append(chunks, []string{""})
			n++
		}
		// Only the lines that fit are drawn: a long answer's thousands
		// of lines cost nothing when its last screenful is shown.
		if take := min(c, height-n); take > 0 {
			chunks = append(chunks, t.span(t.items[i], ls, l, width, c-take, c))
			n += take
		}
		below = i
	}
	out := make([]string, 0, min(n, height))
	for i := len(chunks) - 1; i >= 0; i-- {
		out = append(out, chunks[i]...)
	}
	return out[max(len(out)-height, 0):]
}

// window returns the lines [from, from+height) of the whole transcript.
func (t *transcript) window(l *look, width, from, height int) []string {
	out := make([]string, 0, height)
	pos := 0
	t.walk(l, width, func(i, n int, ls []string) bool {
		if pos+n > from {
			a, b := max(from-pos, 0), min(n, from+height-pos)
			if i < 0 {
				out = append(out, "")
			} else {
				out = append(out, t.span(t.items[i], ls, l, width, a, b)...)
			}
		}
		pos += n
		return len(out) < height
	})
	return out
}

// walk hands each item's line count and lines (nil for a long item) to
// fn in order, separators included (i is -1 for one), until fn returns
// false.
func (t *transcript) walk(l *look, width int, fn func(i, n int, ls []string) bool) {
	above := -1 // the item drawn above the current one
	for i, it := range t.items {
		n, ls := measure(it, l, width)
		if n == 0 {
			continue
		}
		if above >= 0 && t.gap(above, i) && !fn(-1, 1, nil) {
			return
		}
		above = i
		if !fn(i, n, ls) {
			return
		}
	}
}

// total is the number of lines of the whole transcript.
func (t *transcript) total(l *look, width int) int {
	total := 0
	t.walk(l, width, func(_, n int, _ []string) bool { total += n; return true })
	return total
}

// inView returns the items with a line in the view height lines tall,
// top to bottom.
func (t *transcript) inView(l *look, width, height int) []item {
	from := t.top
	if t.follow {
		from = max(t.total(l, width)-height, 0)
	}
	var seen []item
	pos := 0
	t.walk(l, width, func(i, n int, _ []string) bool {
		if i >= 0 && pos+n > from {
			seen = append(seen, t.items[i])
		}
		pos += n
		return pos < from+height
	})
	return seen
}

// reveal scrolls the view, height lines tall, the least that shows it's
// first line and as many of its lines after it as fit.
func (t *transcript) reveal(l *look, width, height int, it item) {
	start, end, pos := -1, -1, 0
	t.walk(l, width, func(i, n int, _ []string) bool {
		if i >= 0 && t.items[i] == it {
			start, end = pos, pos+n
			return false
		}
		pos += n
		return true
	})
	if start < 0 {
		return
	}
	total := t.total(l, width)
	last := max(total-height, 0)
	from := t.top
	if t.follow {
		from = last
	}
	switch {
	case start < from:
		from = start
	case end > from+height:
		from = min(start, end-height)
	default:
		return
	}
	t.top, t.follow = min(from, last), from >= last
}

// scroll moves the view by delta lines (negative: up, towards older
// lines); reaching the bottom follows the newest line again.
func (t *transcript) scroll(l *look, width, height, delta int) {
	total := t.total(l, width)
	last := max(total-height, 0)
	top := t.top
	if t.follow {
		top = last
	}
	top = min(max(top+delta, 0), last)
	t.top, t.follow = top, top >= last
}

// below is how many lines are below the view when scrolled up.
func (t *transcript) below(l *look, width, height int) int {
	if t.follow {
		return 0
	}
	return max(t.total(l, width)-t.top-height, 0)
}
