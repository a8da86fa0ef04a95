// SPDX-License-Identifier: Apache-2.0

// Command tlog-check checks a transparency log's signed checkpoint, entries and proofs with Go's
// reference implementation of the formats (golang.org/x/mod/sumdb/note and .../tlog), so that a log
// written by ProofMode is read by code that ProofMode did not write.
//
// Usage: tlog-check INPUT.json
//
//	tlog-check -url URL -key VERIFIER-KEY [-old CHECKPOINT-FILE] [RECEIPT-FILE...]
//
// The second form reads a live log over HTTP, as an outsider who knows only its key: it fetches
// URL/log/checkpoint and opens it with the key, rebuilds the tree from the log's tiles (each tile checked
// against the signed root), checks that every entry of the entry bundles is the leaf the tree holds, that
// an older checkpoint of the log (a signed note in a file) is consistent with the current one, and that
// each receipt (a C2SP tlog-proof whose extra data is the entry) proves its entry in a checkpoint of the
// log that is consistent with the current one. It prints "ok SIZE" when all hold.
//
// INPUT holds the verifier key, the signed checkpoint note, every entry (base64), inclusion proofs of
// some entries, and an older checkpoint (size, base64 root) with a consistency proof to the new one. It
// prints "ok" and exits 0 when the note opens with the key, the tree of the entries hashes to the
// checkpoint's root, and every proof checks; otherwise it names the first failure and exits 1.
package main

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type input struct {
	VerifierKey string   `json:"verifierKey"`
	Note        string   `json:"note"`
	Entries     []string `json:"entries"`
	Inclusion   []struct {
		Index int64    `json:"index"`
		Proof []string `json:"proof"`
	} `json:"inclusion"`
	OldSize      int64             `json:"oldSize"`
	OldRoot      string            `json:"oldRoot"`
	Consistency  []string          `json:"consistency"`
	Stored       [][]string        `json:"stored"`
	Tiles        map[string]string `json:"tiles"`
	EntryBundles map[string]string `json:"entryBundles"`
}

// ourTiles reads tiles from the log's C2SP paths (tile/<L>/<N>), which are Go's (tile/8/<L>/<N>)
// without the height.
type ourTiles struct {
	data map[string][]byte
}

func (o ourTiles) Height() int { return 8 }

func (o ourTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		path := "tile/" + strings.TrimPrefix(t.Path(), "tile/8/")
		d, ok := o.data[path]
		if !ok {
			return nil, fmt.Errorf("tile %s missing", path)
		}
		out[i] = d
	}
	return out, nil
}

func (o ourTiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

func hashes(b64 []string) []tlog.Hash {
	out := make([]tlog.Hash, len(b64))
	for i, s := range b64 {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b) != tlog.HashSize {
			fail("not a hash: %q", s)
		}
		copy(out[i][:], b)
	}
	return out
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-url" {
		remote(os.Args[1:])
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tlog-check INPUT.json")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var in input
	if err := json.Unmarshal(raw, &in); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}

	verifier, err := note.NewVerifier(in.VerifierKey)
	if err != nil {
		fail("verifier key: %v", err)
	}
	n, err := note.Open([]byte(in.Note), note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint note: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 {
		fail("checkpoint text has fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size != int64(len(in.Entries)) {
		fail("checkpoint size %q, %d entries given", lines[1], len(in.Entries))
	}
	root := hashes([]string{lines[2]})[0]

	// The tree rebuilt from the entries, as a log's storage of hashes.
	var stored []tlog.Hash
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			out[i] = stored[x]
		}
		return out, nil
	})
	for i, e := range in.Entries {
		data, err := base64.StdEncoding.DecodeString(e)
		if err != nil {
			fail("entry %d is not base64", i)
		}
		add, err := tlog.StoredHashes(int64(i), data, reader)
		if err != nil {
			fail("entry %d: %v", i, err)
		}
		// What our log stores when it appends the entry: the same hashes, in the same order.
		if in.Stored != nil {
			ours := hashes(in.Stored[i])
			if len(ours) != len(add) {
				fail("entry %d: %d hashes stored, the reference stores %d", i, len(ours), len(add))
			}
			for k := range add {
				if ours[k] != add[k] {
					fail("entry %d: stored hash %d differs from the reference's", i, k)
				}
			}
		}
		stored = append(stored, add...)
	}
	th, err := tlog.TreeHash(size, reader)
	if err != nil {
		fail("tree hash: %v", err)
	}
	if th != root {
		fail("the entries hash to %v, the checkpoint says %v", th, root)
	}

	for _, p := range in.Inclusion {
		data, _ := base64.StdEncoding.DecodeString(in.Entries[p.Index])
		if err := tlog.CheckRecord(hashes(p.Proof), size, root, p.Index, tlog.RecordHash(data)); err != nil {
			fail("inclusion of entry %d: %v", p.Index, err)
		}
	}
	if in.OldSize > 0 {
		old := hashes([]string{in.OldRoot})[0]
		if err := tlog.CheckTree(hashes(in.Consistency), size, root, in.OldSize, old); err != nil {
			fail("consistency from %d to %d: %v", in.OldSize, size, err)
		}
	}
	if in.Tiles != nil {
		checkTiles(in, size, root, reader)
	}
	fmt.Println("ok")
}

// checkTiles compares our tiles with the reference's, rebuilds the tree and proofs from our tiles
// alone (the reference checks every tile it reads against the root), and reads our entry bundles.
func checkTiles(in input, size int64, root tlog.Hash, stored tlog.HashReader) {
	ours := ourTiles{data: map[string][]byte{}}
	for path, b64 := range in.Tiles {
		d, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			fail("tile %s is not base64", path)
		}
		ours.data[path] = d
	}
	// The tiles a log of this size serves: the complete ones and, per level, the widest partial one.
	want := map[string]bool{}
	widest := map[int]tlog.Tile{}
	for _, t := range tlog.NewTiles(8, 0, size) {
		if t.W == 256 {
			want[t.Path()] = true
		} else if w, ok := widest[t.L]; !ok || t.W > w.W {
			widest[t.L] = t
		}
	}
	for _, t := range widest {
		want[t.Path()] = true
	}
	if len(want) != len(ours.data) {
		fail("%d tiles given, a tree of %d has %d", len(ours.data), size, len(want))
	}
	for goPath := range want {
		t, err := tlog.ParseTilePath(goPath)
		if err != nil {
			fail("tile path %s: %v", goPath, err)
		}
		expect, err := tlog.ReadTileData(t, stored)
		if err != nil {
			fail("tile %s: %v", goPath, err)
		}
		path := "tile/" + strings.TrimPrefix(goPath, "tile/8/")
		if string(ours.data[path]) != string(expect) {
			fail("tile %s differs from the reference's", path)
		}
	}
	fromTiles := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, ours)
	th, err := tlog.TreeHash(size, fromTiles)
	if err != nil || th != root {
		fail("tree from the tiles: %v", err)
	}
	for i := int64(0); i < size; i += 7 {
		p, err := tlog.ProveRecord(size, i, fromTiles)
		if err != nil {
			fail("proof of entry %d from the tiles: %v", i, err)
		}
		data, _ := base64.StdEncoding.DecodeString(in.Entries[i])
		if err := tlog.CheckRecord(p, size, root, i, tlog.RecordHash(data)); err != nil {
			fail("proof of entry %d from the tiles: %v", i, err)
		}
	}
	seen := 0
	for path, b64 := range in.EntryBundles {
		t, err := tlog.ParseTilePath("tile/8/0/" + strings.TrimPrefix(path, "tile/entries/"))
		if err != nil {
			fail("entry bundle path %s: %v", path, err)
		}
		d, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			fail("entry bundle %s is not base64", path)
		}
		for k := 0; k < t.W; k++ {
			if len(d) < 2 {
				fail("entry bundle %s truncated at entry %d", path, k)
			}
			n := int(d[0])<<8 | int(d[1])
			if len(d) < 2+n {
				fail("entry bundle %s truncated at entry %d", path, k)
			}
			want, _ := base64.StdEncoding.DecodeString(in.Entries[t.N*256+int64(k)])
			if string(d[2:2+n]) != string(want) {
				fail("entry bundle %s: entry %d differs", path, k)
			}
			d = d[2+n:]
			seen++
		}
		if len(d) != 0 {
			fail("entry bundle %s has bytes after its %d entries", path, t.W)
		}
	}
	if int64(seen) != size {
		fail("entry bundles hold %d entries, the tree %d", seen, size)
	}
}

// httpTiles reads a log's tiles over HTTP at their C2SP paths.
type httpTiles struct {
	get func(path string) []byte
}

func (h httpTiles) Height() int { return 8 }

func (h httpTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		out[i] = h.get("tile/" + strings.TrimPrefix(t.Path(), "tile/8/"))
	}
	return out, nil
}

func (h httpTiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

// checkpoint opens a signed checkpoint with the log's key and reads its size and root.
func checkpoint(text []byte, verifier note.Verifier) (int64, tlog.Hash) {
	n, err := note.Open(text, note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint note: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != verifier.Name() {
		fail("checkpoint text is not origin, size and root of %s", verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 {
		fail("checkpoint size %q", lines[1])
	}
	return size, hashes([]string{lines[2]})[0]
}

func remote(args []string) {
	fs := flag.NewFlagSet("tlog-check", flag.ExitOnError)
	url := fs.String("url", "", "the server's base URL")
	key := fs.String("key", "", "the log's verifier key")
	old := fs.String("old", "", "a file with an older signed checkpoint of the log")
	fs.Parse(args)
	verifier, err := note.NewVerifier(*key)
	if err != nil {
		fail("verifier key: %v", err)
	}
	get := func(path string) []byte {
		resp, err := http.Get(strings.TrimSuffix(*url, "/") + "/log/" + path)
		if err != nil {
			fail("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			fail("GET %s: status %d", path, resp.StatusCode)
		}
		return body
	}
	size, root := checkpoint(get("checkpoint"), verifier)
	tiles := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, httpTiles{get})
	th, err := tlog.TreeHash(size, tiles)
	if err != nil || th != root {
		fail("tree from the tiles: %v", err)
	}
	// Every entry is the leaf the tree holds at its index.
	for start := int64(0); start < size; start += 256 {
		w := size - start
		if w > 256 {
			w = 256
		}
		t := tlog.Tile{H: 8, L: 0, N: start / 256, W: int(w)}
		d := get("tile/entries/" + strings.TrimPrefix(t.Path(), "tile/8/0/"))
		for k := int64(0); k < w; k++ {
			if len(d) < 2 || len(d) < 2+(int(d[0])<<8|int(d[1])) {
				fail("entry bundle %d truncated at entry %d", t.N, k)
			}
			n := int(d[0])<<8 | int(d[1])
			i := start + k
			p, err := tlog.ProveRecord(size, i, tiles)
			if err != nil {
				fail("proof of entry %d: %v", i, err)
			}
			if err := tlog.CheckRecord(p, size, root, i, tlog.RecordHash(d[2:2+n])); err != nil {
				fail("entry %d is not the tree's leaf %d: %v", i, i, err)
			}
			d = d[2+n:]
		}
		if len(d) != 0 {
			fail("entry bundle %d has bytes after its %d entries", t.N, w)
		}
	}
	consistent := func(what string, oldSize int64, oldRoot tlog.Hash) {
		if oldSize > size {
			fail("%s has %d entries, the log now %d: the log shrank", what, oldSize, size)
		}
		p, err := tlog.ProveTree(size, oldSize, tiles)
		if err != nil {
			fail("consistency proof from %s: %v", what, err)
		}
		if err := tlog.CheckTree(p, size, root, oldSize, oldRoot); err != nil {
			fail("%s is not consistent with the current checkpoint: %v", what, err)
		}
	}
	if *old != "" {
		text, err := os.ReadFile(*old)
		if err != nil {
			fail("%v", err)
		}
		oldSize, oldRoot := checkpoint(text, verifier)
		consistent("the older checkpoint", oldSize, oldRoot)
	}
	for _, file := range fs.Args() {
		raw, err := os.ReadFile(file)
		if err != nil {
			fail("%v", err)
		}
		receipt(file, raw, verifier, consistent)
	}
	fmt.Printf("ok %d\n", size)
}

// receipt checks a C2SP tlog-proof: header, extra (the entry), index, hashes, blank line, checkpoint.
func receipt(file string, raw []byte, verifier note.Verifier, consistent func(string, int64, tlog.Hash)) {
	text := string(raw)
	end := strings.Index(text, "\n\n")
	if end < 0 {
		fail("%s: no checkpoint", file)
	}
	lines := strings.Split(text[:end], "\n")
	if len(lines) < 3 || lines[0] != "c2sp.org/tlog-proof@v1" || !strings.HasPrefix(lines[1], "extra ") || !strings.HasPrefix(lines[2], "index ") {
		fail("%s: not a tlog-proof with the entry as extra data", file)
	}
	entry, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[1], "extra "))
	if err != nil {
		fail("%s: extra is not base64", file)
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(lines[2], "index "), 10, 64)
	if err != nil {
		fail("%s: index", file)
	}
	size, root := checkpoint([]byte(text[end+2:]), verifier)
	if err := tlog.CheckRecord(hashes(lines[3:]), size, root, index, tlog.RecordHash(entry)); err != nil {
		fail("%s: the proof does not lead from the entry to the checkpoint: %v", file, err)
	}
	consistent(file+"'s checkpoint", size, root)
}
