package semantic

import (
	"encoding/json"
	"math"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// FuzzVectorsOf feeds the embeddings endpoint's answer (outside input) to
// its checker: whatever the server sends, an accepted answer has one unit
// vector per text, all of one dimension.
func FuzzVectorsOf(f *testing.F) {
	f.Add([]byte(`[{"embedding":[1,2,2],"index":0}]`), 1)
	f.Add([]byte(`[{"embedding":[0,0],"index":0},{"embedding":[1,0],"index":1}]`), 2)
	f.Add([]byte(`[{"embedding":[1,0],"index":1},{"embedding":[3,4],"index":1}]`), 2)
	f.Add([]byte(`[{"embedding":[1e38,1e38],"index":0}]`), 1)
	f.Add([]byte(`[{"embedding":[1],"index":0},{"embedding":[1,2],"index":1}]`), 2)
	f.Fuzz(func(t *testing.T, raw []byte, n int) {
		var data []openai.Embedding
		if json.Unmarshal(raw, &data) != nil || n < 0 || n > 64 {
			return
		}
		vecs, err := vectorsOf(data, n)
		if err != nil {
			return
		}
		if len(vecs) != n {
			t.Fatalf("%d vectors for %d texts", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) != len(vecs[0]) || len(v) == 0 {
				t.Fatalf("dimensions %d and %d", len(v), len(vecs[0]))
			}
			var norm float64
			for _, x := range v {
				norm += float64(x) * float64(x)
			}
			if math.Abs(norm-1) > 1e-3 {
				t.Fatalf("not unit length: %v", norm)
			}
		}
	})
}
