// SPDX-License-Identifier: Apache-2.0

// Command tlog-check checks a transparency log's signed checkpoint, entries and proofs with Go's
// reference implementation of the formats (golang.org/x/mod/sumdb/note and .../tlog), so that a log
// written by ProofMode is read by code that ProofMode did not write.
//
// Usage: tlog-check INPUT.json
//
// INPUT holds the verifier key, the signed checkpoint note, every entry (base64), inclusion proofs of
// some entries, and an older checkpoint (size, base64 root) with a consistency proof to the new one. It
// prints "ok" and exits 0 when the note opens with the key, the tree of the entries hashes to the
// checkpoint's root, and every proof checks; otherwise it names the first failure and exits 1.
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
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
	OldSize     int64    `json:"oldSize"`
	OldRoot     string   `json:"oldRoot"`
	Consistency []string `json:"consistency"`
}

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
	fmt.Println("ok")
}
