package heart

import (
	"encoding/json"
	"strings"
)

// The model output parsers (perception, trailer) read a JSON object as raw
// fields and validate each on its own. encoding/json did that by reflection
// over a struct of json.RawMessage, deep enough in the stack to grow every
// turn's goroutine stack at that point; these few functions split a valid
// object's top level into its fields directly, with the same result
// (FuzzObjectFields checks it against json.Unmarshal).

// rawField is one field of a wire struct: its JSON name and where its raw
// value goes.
type rawField struct {
	name string
	dst  *json.RawMessage
}

// wire is a struct of raw fields that objectFields can fill.
type wire interface{ fields() []rawField }

// objectFields sets w's fields from obj, a valid JSON object, as
// json.Unmarshal would: a key names the field with exactly that name, or
// else one whose name matches it ignoring case; the last of repeated keys
// wins; a raw value keeps its bytes as written.
func objectFields(obj []byte, w wire) {
	fs := w.fields()
	i := skipSpace(obj, 1) // past '{'
	for i < len(obj) && obj[i] == '"' {
		end := stringEnd(obj, i)
		key, _ := jsonString(obj[i:end])
		i = skipSpace(obj, skipSpace(obj, end)+1) // past ':'
		vEnd := valueEnd(obj, i)
		if f := fieldNamed(fs, key); f != nil {
			*f.dst = obj[i:vEnd]
		}
		i = skipSpace(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
}

// fieldNamed is the field key sets: an exact name first, else one equal
// ignoring case.
func fieldNamed(fs []rawField, key string) *rawField {
	for i := range fs {
		if fs[i].name == key {
			return &fs[i]
		}
	}
	for i := range fs {
		if strings.EqualFold(fs[i].name, key) {
			return &fs[i]
		}
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index after the string starting at b[i] == '"'.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// valueEnd is the index after the value starting at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ { // a number, true, false or null
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return len(b)
}
