package webhooks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const verifierDir = "testdata/verifier"

// referenceReceiver starts testdata/verifier/receiver.mjs, a receiver built
// on the Standard Webhooks reference library (npm standardwebhooks), with
// the given secrets by name, and returns its base URL.
func referenceReceiver(t *testing.T, secrets map[string]string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	lib := filepath.Join(verifierDir, "node_modules", "standardwebhooks", "package.json")
	if err == nil {
		_, err = os.Stat(lib)
	}
	if err != nil {
		msg := "the Standard Webhooks reference receiver needs node and `npm ci --prefix httpadapter/webhooks/testdata/verifier` (.ci/run does it): " + err.Error()
		if os.Getenv("EVENTCAL_REQUIRE_NODE") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	js, _ := json.Marshal(secrets)
	cmd := exec.Command(node, "receiver.mjs")
	cmd.Dir = verifierDir
	cmd.Env = append(os.Environ(), "SECRETS="+string(js))
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the receiver exits when its input closes
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	port, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		t.Fatalf("reference receiver did not start: %q %v", line, err)
	}
	return "http://127.0.0.1:" + port
}

type referenceLog struct {
	Accepted []struct {
		Name, ID, Type string
		Seq            uint64
	}
	Rejected []struct{ Name, ID, Error string }
}

func readReferenceLog(t *testing.T, base string) referenceLog {
	t.Helper()
	resp, err := http.Get(base + "/log")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var l referenceLog
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestReferenceLibraryVerifiesEveryDelivery(t *testing.T) {
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	secrets := map[string]string{}
	var names []string
	for i := range 3 {
		name := "s" + strconv.Itoa(i+1)
		sec, _ := NewSecret()
		secrets[name], names = sec, append(names, name)
	}
	base := referenceReceiver(t, secrets)
	subs := map[string]Subscription{}
	for _, name := range names {
		subs[name] = mustCreate(t, store, Subscription{URL: base + "/hook/" + name, Secret: secrets[name], Types: []string{TypeAll}})
	}
	start(t, New(src, store, testOptions(WithRESTBase("https://cal.example/wp-json/calendar/events/v1"))...))
	const n = 60
	for i := range n {
		c := Change{Kind: Kinds[i%len(Kinds)], ID: int64(i), Action: Actions[(i/5)%len(Actions)], Version: int64(i)}
		if i%4 == 0 {
			c.Kind, c.Series = KindEvent, 3
		}
		src.Append(c)
	}
	for _, name := range names {
		waitFor(t, "deliveries to "+name, func() bool { return getSub(t, store, subs[name].ID).Cursor == n })
	}
	l := readReferenceLog(t, base)
	if len(l.Rejected) != 0 {
		t.Fatalf("the reference library rejected %d deliveries, first: %+v", len(l.Rejected), l.Rejected[0])
	}
	want, _ := src.Changes(t.Context(), 0, n)
	for _, name := range names {
		var got []string
		for _, a := range l.Accepted {
			if a.Name == name {
				got = append(got, fmt.Sprintf("%s %s %d", a.ID, a.Type, a.Seq))
			}
		}
		var exp []string
		for _, c := range want {
			exp = append(exp, fmt.Sprintf("%s %s %d", MessageID(subs[name].ID, c.Seq), c.Type(), c.Seq))
		}
		if !slices.Equal(got, exp) {
			t.Fatalf("%s: accepted\n%v\nwant\n%v", name, got, exp)
		}
	}

	// What the reference library must reject.
	post := func(body []byte, id string, ts time.Time, sig string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, base+"/hook/s1", bytes.NewReader(body))
		req.Header.Set(HeaderID, id)
		req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
		req.Header.Set(HeaderSignature, sig)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		msg, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(msg)
	}
	body, _ := payloadFor(want[0], "")
	now := time.Now()
	sig, _ := Sign(secrets["s1"], "msg_x", now, body)
	if code, msg := post(body, "msg_x", now, sig); code != http.StatusNoContent {
		t.Fatalf("control delivery: %d %s", code, msg)
	}
	tampered := bytes.Replace(body, []byte(`"version":0`), []byte(`"version":1`), 1)
	if bytes.Equal(tampered, body) {
		t.Fatal("tampering changed nothing")
	}
	if code, msg := post(tampered, "msg_x", now, sig); code != http.StatusBadRequest || !strings.Contains(msg, "No matching signature") {
		t.Fatalf("tampered body: %d %s", code, msg)
	}
	if code, msg := post(body, "msg_y", now, sig); code != http.StatusBadRequest || !strings.Contains(msg, "No matching signature") {
		t.Fatalf("other id: %d %s", code, msg)
	}
	old := now.Add(-10 * time.Minute)
	oldSig, _ := Sign(secrets["s1"], "msg_x", old, body)
	if code, msg := post(body, "msg_x", old, oldSig); code != http.StatusBadRequest || !strings.Contains(msg, "too old") {
		t.Fatalf("old timestamp: %d %s", code, msg)
	}
	if code, msg := post(body, "msg_x", now, strings.Replace(oldSig, "v1,", "v1,x", 1)); code != http.StatusBadRequest {
		t.Fatalf("garbled signature: %d %s", code, msg)
	}

	// And the other way round: Verify accepts what the library signs.
	req, _ := json.Marshal(map[string]any{"id": "msg_ref", "timestamp": now.Unix(), "payload": string(body)})
	resp, err := http.Post(base+"/sign/s1", "application/json", bytes.NewReader(req))
	if err != nil {
		t.Fatal(err)
	}
	var signed struct{ Signature string }
	json.NewDecoder(resp.Body).Decode(&signed)
	resp.Body.Close()
	h := http.Header{}
	h.Set(HeaderID, "msg_ref")
	h.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	h.Set(HeaderSignature, signed.Signature)
	if err := Verify(secrets["s1"], h, body); err != nil {
		t.Fatalf("Verify of the library's signature %q: %v", signed.Signature, err)
	}
	if ours, _ := Sign(secrets["s1"], "msg_ref", now, body); ours != signed.Signature {
		t.Fatalf("Sign = %s, library = %s", ours, signed.Signature)
	}
}
