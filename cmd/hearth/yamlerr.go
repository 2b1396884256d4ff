package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlProblem is one YAML decoding error, said for people: the line, the
// key it belongs to (dotted, "lifeloop.schedule"; "" when unknown) and what
// is wrong, without the decoder's Go type names.
type yamlProblem struct {
	Line int
	Key  string
	What string
}

// More than one problem is reported as the first and a count.
func (p yamlProblem) withMore(n int) yamlProblem {
	if n > 0 {
		p.What += fmt.Sprintf(" (and %d more)", n)
	}
	return p
}

var (
	// yamlTypeMsg is yaml's "line 4: cannot unmarshal !!str `high` into float64".
	yamlTypeMsg = regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")
	// yamlLineMsg is any other of its "line N: ..." messages.
	yamlLineMsg = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
)

// explainYAML turns an error of decoding root's document into a
// yamlProblem. The first problem is named; its key is looked up in root.
func explainYAML(root *yaml.Node, err error) yamlProblem {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		p := explainLine(te.Errors[0])
		p.Key = keyAtLine(root, p.Line, "")
		return p.withMore(len(te.Errors) - 1)
	}
	return explainLine(err.Error())
}

// explainLine reads one of yaml's messages.
func explainLine(msg string) yamlProblem {
	if m := yamlTypeMsg.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		got := yamlKinds[m[2]]
		if m[3] != "" || got == "" {
			got = strconv.Quote(m[3])
		}
		return yamlProblem{Line: line, What: "want " + goKind(m[4]) + ", got " + got}
	}
	if m := yamlLineMsg.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return yamlProblem{Line: line, What: m[2]}
	}
	return yamlProblem{What: strings.TrimPrefix(msg, "yaml: ")}
}

// yamlKinds names YAML's own kinds of value.
var yamlKinds = map[string]string{"map": "a mapping", "seq": "a list", "null": "nothing"}

// goKind says what a Go type the decoder wanted looks like in YAML.
func goKind(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["), strings.Contains(t, "."), strings.HasPrefix(t, "struct"):
		return "a mapping"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "a whole number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "text"
	}
	return t
}

// keyAtLine is the dotted key whose value starts on line, or "".
func keyAtLine(n *yaml.Node, line int, prefix string) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if k := keyAtLine(c, line, prefix); k != "" {
				return k
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Line == line || v.Line == line {
				if deeper := keyAtLine(v, line, prefix+k.Value+"."); deeper != "" {
					return deeper
				}
				return prefix + k.Value
			}
			if deeper := keyAtLine(v, line, prefix+k.Value+"."); deeper != "" {
				return deeper
			}
		}
	}
	return ""
}
