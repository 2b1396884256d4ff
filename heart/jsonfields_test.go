package heart

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzObjectFields: objectFields fills a wire struct from any valid JSON
// object exactly as json.Unmarshal fills it by its tags.
func FuzzObjectFields(f *testing.F) {
	for _, s := range []string{
		`{"emotion_label":"joy","emotion_intensity":0.3,"salience":0.2,"confidence":0.9,"topic_tags":[],"remember":[],"scratch":""}`,
		`{ "Salience" : 1 , "salience": 2, "SALIENCE":[1,{"a":"}"}], "x":{"y":[null]} }`,
		`{"emotion_label":"a\"b\\","remember":[{"slot":3,"content":"猫 {"}],"follow_ups":null,"scratch":true}`,
		`{"intent_category":"GREETING","sentiment":"0.5","crisis":false,"Intent":"x","disclosure":"deep"}`,
		`{}`, `{"\u0073alience": -1e3}`, `{"ſcratch": 1, "emotion_\u006cabel": "k"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		obj := raw[skipSpace(raw, 0):]
		if len(obj) == 0 || obj[0] != '{' {
			return
		}
		for _, pair := range [][2]wire{{new(trailerWire), new(trailerWire)}, {new(perceptionWire), new(perceptionWire)}} {
			got, want := pair[0], pair[1]
			objectFields(obj, got)
			if err := json.Unmarshal(raw, want); err != nil {
				t.Fatalf("json.Unmarshal(%q): %v", raw, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("objectFields(%q)\n got %+v\nwant %+v", raw, got, want)
			}
		}
	})
}
