package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/redisstore/redisproc"
)

// createTag creates a tag as name:pw and returns the status and the
// WWW-Authenticate challenges.
func createTag(t *testing.T, base, name, pw, tag string) (int, []string) {
	t.Helper()
	req := mustReq(t, "POST", base+"/wp-json/calendar/events/v1/tags", fmt.Sprintf(`{"name":%q}`, tag))
	req.SetBasicAuth(name, pw)
	res, _ := getJSON(t, req)
	return res.StatusCode, res.Header.Values("WWW-Authenticate")
}

// TestUsersFileCreatedOnce: the first start on a durable store creates the
// users file beside it, with an admin whose random password is printed
// once and never stored; later starts reuse the file and print nothing.
func TestUsersFileCreatedOnce(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	cfg := config{Store: "bolt", DB: filepath.Join(dir, "cal.db"), Out: &out}
	ls := startLive(t, cfg)
	path := filepath.Join(dir, "cal.users")
	line := out.String()
	i := strings.Index(line, "password ")
	if !strings.Contains(line, path) || i < 0 {
		t.Fatalf("first start printed %q", line)
	}
	pw := strings.Fields(line[i+len("password "):])[0]
	if len(pw) < 20 {
		t.Errorf("weak password %q", pw)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("users file mode %v", st.Mode().Perm())
	}
	file, _ := os.ReadFile(path)
	if bytes.Contains(file, []byte(pw)) || !bytes.Contains(file, []byte(fmt.Sprintf("admin:$2a$%02d$", bcryptCost))) {
		t.Fatalf("users file:\n%s", file)
	}
	if code, _ := createTag(t, ls.base, "admin", pw, "first"); code != 201 {
		t.Fatalf("admin with the printed password: %d", code)
	}
	ls.stop()
	out.Reset()
	ls = startLive(t, cfg)
	if out.Len() != 0 {
		t.Errorf("second start printed %q", out.String())
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, file) {
		t.Errorf("users file changed on the second start")
	}
	if code, _ := createTag(t, ls.base, "admin", pw, "second"); code != 201 {
		t.Fatalf("admin after a restart: %d", code)
	}
	code, ch := createTag(t, ls.base, "admin", pw+"x", "third")
	if code != 401 || len(ch) == 0 || !strings.HasPrefix(ch[0], `Basic realm="eventcal"`) {
		t.Errorf("wrong password: %d %q", code, ch)
	}
}

// TestUseradd: passwords of any character, from standard input or the
// environment; the file never holds one; nothing secret is printed; the
// server authenticates the users with their roles.
func TestUseradd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "team.users")
	run := func(stdin string, args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := useradd(args, strings.NewReader(stdin), &out, &errOut)
		return out.String() + errOut.String(), err
	}
	annPW := "pa:ss w\u00f6rd \"quoted\" #1\ttab"
	out, err := run(annPW+"\n", "-users", path, "-role", "editor", "ann")
	if err != nil || !strings.Contains(out, "added user ann (editor, id 1)") {
		t.Fatalf("useradd ann: %v %q", err, out)
	}
	// The environment gives the password; a final CR LF from a pipe is
	// removed, other trailing spaces are kept.
	t.Setenv("EVENTCAL_PASSWORD", "bob's:pw ")
	if out, err := run("", "-users", path, "-role", "subscriber", "bob"); err != nil || !strings.Contains(out, "id 2") {
		t.Fatalf("useradd bob: %v %q", err, out)
	}
	os.Unsetenv("EVENTCAL_PASSWORD")
	if _, err := run("x\n", "-users", path, "ann"); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("second ann: %v", err)
	}
	for _, bad := range [][]string{{"-users", path, "a:b"}, {"-users", path, "-role", "king", "cid"}, {"-users", path}, {"-users", path, "-id", "1", "cid"}} {
		if _, err := run("pw\n", bad...); err == nil {
			t.Errorf("useradd %q accepted", bad)
		}
	}
	if _, err := run("", "-users", path, "cid"); err == nil {
		t.Error("empty password accepted")
	}
	if _, err := run("pw\n", "-store", "mem", "cid"); err == nil {
		t.Error("useradd without a users file accepted")
	}
	// -replace changes the password and role, keeps the id.
	carlPW := "old\r\n"
	if _, err := run(carlPW, "-users", path, "-role", "author", "carl"); err != nil {
		t.Fatal(err)
	}
	if out, err := run("new-pw\r\n", "-users", path, "-replace", "-role", "administrator", "carl"); err != nil || !strings.Contains(out, "updated user carl (administrator, id 3)") {
		t.Fatalf("replace: %v %q", err, out)
	}
	file, _ := os.ReadFile(path)
	for _, secret := range []string{annPW, "bob's", "old", "new-pw", "pa:ss"} {
		if bytes.Contains(file, []byte(secret)) {
			t.Fatalf("the users file holds %q:\n%s", secret, file)
		}
	}
	users, err := httpadapter.ParseUsers(bytes.NewReader(file))
	if err != nil || len(users) != 3 {
		t.Fatalf("%v %v", users, err)
	}

	ls := startLive(t, config{Store: "mem", UsersFile: path})
	for _, c := range []struct {
		name, pw string
		want     int
	}{
		{"ann", annPW, 201}, {"bob", "bob's:pw ", 403}, {"bob", "bob's:pw", 401},
		{"carl", "new-pw", 201}, {"carl", "old", 401}, {"ann", "pa", 401}, {"nobody", "x", 401},
	} {
		code, ch := createTag(t, ls.base, c.name, c.pw, "tag by "+c.name)
		if code != c.want {
			t.Errorf("%s/%q: %d, want %d", c.name, c.pw, code, c.want)
		}
		if (code == 401) != (len(ch) > 0) || (code == 401 && ch[0] != `Basic realm="eventcal", charset="UTF-8"`) {
			t.Errorf("%s: %d with challenges %q", c.name, code, ch)
		}
	}
}

// TestEnvironmentVariables: every flag reads EVENTCAL_<NAME>; a flag on the
// command line wins; a bad value names the variable.
func TestEnvironmentVariables(t *testing.T) {
	parse := func(args ...string) (config, *flag.FlagSet, error) {
		var cfg config
		fs := flag.NewFlagSet("server", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cfg.storeFlags(fs)
		cfg.serverFlags(fs)
		return cfg, fs, parseWithEnv(fs, args)
	}
	t.Setenv("EVENTCAL_STORE", "mem")
	t.Setenv("EVENTCAL_REDIS_PREFIX", "from-env")
	t.Setenv("EVENTCAL_WRITE_TIMEOUT", "7s")
	t.Setenv("EVENTCAL_DEMO", "true")
	t.Setenv("EVENTCAL_MAX_HEADER_BYTES", "")
	cfg, fs, err := parse("-store", "bolt")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Store != "bolt" || cfg.RedisPrefix != "from-env" || cfg.WriteTimeout != 7*time.Second || !cfg.Demo || cfg.MaxHeaderBytes != defaultLimits.MaxHeaderBytes {
		t.Errorf("got store %q prefix %q write %v demo %v header %d", cfg.Store, cfg.RedisPrefix, cfg.WriteTimeout, cfg.Demo, cfg.MaxHeaderBytes)
	}
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if !strings.HasSuffix(f.Usage, "(env "+envName(f.Name)+")") {
			t.Errorf("-%s: usage %q does not name its variable", f.Name, f.Usage)
		}
	})
	if n < 15 {
		t.Errorf("only %d flags", n)
	}
	t.Setenv("EVENTCAL_IDLE_TIMEOUT", "soon")
	if _, _, err := parse(); err == nil || !strings.Contains(err.Error(), "EVENTCAL_IDLE_TIMEOUT") {
		t.Errorf("bad variable: %v", err)
	}
	if envName("redis-prefix") != "EVENTCAL_REDIS_PREFIX" {
		t.Error(envName("redis-prefix"))
	}
}

// TestMetricsEndpoint: with -metrics-path the server counts requests by
// route pattern and status; without it the path is an ordinary 404. The log
// names the route pattern too.
func TestMetricsEndpoint(t *testing.T) {
	var logs logBuffer
	ls := startLive(t, config{Store: "mem", Demo: true, MetricsPath: "/metrics", Log: slog.New(slog.NewTextHandler(&logs, nil))})
	res, list := getJSON(t, mustReq(t, "GET", ls.base+"/wp-json/tribe/events/v1/events?per_page=1", ""))
	if res.StatusCode != 200 {
		t.Fatal(res.StatusCode)
	}
	id := fmt.Sprint(list["events"].([]any)[0].(map[string]any)["id"])
	getJSON(t, mustReq(t, "GET", ls.base+"/wp-json/calendar/events/v1/events/"+id, ""))
	getJSON(t, mustReq(t, "GET", ls.base+"/fr/wp-json/calendar/events/v1/events/"+id, ""))
	getJSON(t, mustReq(t, "GET", ls.base+"/wp-json/calendar/events/v1/events/999999", ""))
	getJSON(t, mustReq(t, "GET", ls.base+"/healthz", ""))
	getJSON(t, mustReq(t, "GET", ls.base+"/nowhere", ""))
	res, err := http.Get(ls.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	got := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		sp := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[sp+1:], 64)
		if sp < 0 || err != nil {
			t.Fatalf("bad sample line %q", line)
		}
		got[line[:sp]] = v
	}
	for series, want := range map[string]float64{
		`eventcal_http_requests_total{route="/wp-json/calendar/events/v1/events",method="GET",status="200"}`:      1,
		`eventcal_http_requests_total{route="/wp-json/calendar/events/v1/events/{id}",method="GET",status="200"}`: 2,
		`eventcal_http_requests_total{route="/wp-json/calendar/events/v1/events/{id}",method="GET",status="404"}`: 1,
		`eventcal_http_requests_total{route="GET /healthz",method="GET",status="200"}`:                            1,
		`eventcal_http_requests_total{route="unmatched",method="GET",status="404"}`:                               1,
		`eventcal_http_requests_in_flight`: 1, // the metrics request itself
	} {
		if got[series] != want {
			t.Errorf("%s = %v, want %v\n%s", series, got[series], want, body)
		}
	}
	if !strings.Contains(logs.String(), `route=/wp-json/calendar/events/v1/events/{id}`) {
		t.Errorf("log without route pattern: %s", logs.String())
	}
	off := startLive(t, config{Store: "mem"})
	if res, body := getJSON(t, mustReq(t, "GET", off.base+"/metrics", "")); res.StatusCode != 404 || body["code"] != "rest_no_route" {
		t.Errorf("metrics served without -metrics-path: %d", res.StatusCode)
	}
	if _, err := newServer(context.Background(), config{Store: "mem", MetricsPath: "metrics"}); err == nil {
		t.Error("a metrics path without a leading slash accepted")
	}
}

// TestHealthAndReadiness: /healthz answers while the process runs;
// /readyz follows the store: a private Redis killed makes it 503 within the
// ready timeout, and 200 again once Redis is back.
func TestHealthAndReadiness(t *testing.T) {
	for _, store := range []string{"mem", "bolt"} {
		ls := startLive(t, config{Store: store, DB: filepath.Join(t.TempDir(), "r.db"), UsersFile: writeUsers(t, "a:pw:administrator\n")})
		for _, p := range []string{"/healthz", "/readyz"} {
			if res, body := getJSON(t, mustReq(t, "GET", ls.base+p, "")); res.StatusCode != 200 || body["status"] == nil {
				t.Errorf("%s %s: %d %v", store, p, res.StatusCode, body)
			}
		}
	}
	r := redisproc.Start(t)
	const wait = 500 * time.Millisecond
	ls := startLive(t, config{Store: "redis", RedisURL: "redis://" + r.Addr + "/0", RedisPrefix: "ready",
		UsersFile: writeUsers(t, "a:pw:administrator\n"), ReadyTimeout: wait})
	ready := func() (int, time.Duration) {
		start := time.Now()
		res, _ := getJSON(t, mustReq(t, "GET", ls.base+"/readyz", ""))
		return res.StatusCode, time.Since(start)
	}
	if code, _ := ready(); code != 200 {
		t.Fatalf("ready with Redis up: %d", code)
	}
	// A Redis that hangs: the deadline answers.
	r.Pause()
	code, took := ready()
	r.Resume()
	if code != 503 || took > wait+5*time.Second {
		t.Errorf("ready with Redis hanging: %d after %v (deadline %v)", code, took, wait)
	}
	r.Kill()
	code, took = ready()
	if code != 503 {
		t.Errorf("ready with Redis down: %d", code)
	}
	if took > wait+5*time.Second {
		t.Errorf("readiness took %v with a %v deadline", took, wait)
	}
	if res, _ := getJSON(t, mustReq(t, "GET", ls.base+"/healthz", "")); res.StatusCode != 200 {
		t.Errorf("healthz with Redis down: %d", res.StatusCode)
	}
	r.Start(t)
	deadline := time.Now().Add(10 * time.Second)
	for code, _ = ready(); code != 200 && time.Now().Before(deadline); code, _ = ready() {
		time.Sleep(100 * time.Millisecond)
	}
	if code != 200 {
		t.Errorf("ready after Redis came back: %d", code)
	}
}

// TestCommandLine runs the built program: useradd reads the password from a
// pipe, the server takes its settings from EVENTCAL_* variables, serves
// health, the API and metrics, and exits cleanly on SIGTERM.
func TestCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "server")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	users := filepath.Join(dir, "cal.users")
	cmd := exec.Command(bin, "useradd", "-users", users, "-role", "editor", "ann")
	cmd.Stdin = strings.NewReader("colon:and space\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "added user ann") || strings.Contains(string(out), "colon") {
		t.Fatalf("useradd: %v %s", err, out)
	}
	out, err = exec.Command(bin, "-h").CombinedOutput()
	if !strings.Contains(string(out), "EVENTCAL_ADDR") || !strings.Contains(string(out), "EVENTCAL_WRITE_TIMEOUT") {
		t.Errorf("-h does not name the variables: %v %s", err, out)
	}
	if out, err := exec.Command(bin, "frobnicate").CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown command") {
		t.Errorf("unknown command: %v %s", err, out)
	}

	addr := "127.0.0.1:" + redisproc.FreePort(t)
	srv := exec.Command(bin, "-store", "bolt") // the flag and the variable agree; -store wins anyway
	srv.Env = append(os.Environ(), "EVENTCAL_ADDR="+addr, "EVENTCAL_STORE=mem", "EVENTCAL_DB="+filepath.Join(dir, "cal.db"),
		"EVENTCAL_METRICS_PATH=/metrics", "EVENTCAL_WRITE_TIMEOUT=5s")
	var logs bytes.Buffer
	srv.Stdout, srv.Stderr = &logs, &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	t.Cleanup(func() {
		if srv.ProcessState == nil {
			srv.Process.Kill()
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not come up: %v\n%s", err, logs.String())
		}
	}
	// The users file beside cal.db is the one useradd wrote: -store bolt
	// (the flag) won over EVENTCAL_STORE=mem.
	if code, _ := createTag(t, base, "ann", "colon:and space", "from the command line"); code != 201 {
		t.Errorf("ann: %d\n%s", code, logs.String())
	}
	if res, err := http.Get(base + "/metrics"); err != nil || res.StatusCode != 200 {
		t.Errorf("metrics: %v %v", res, err)
	}
	srv.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("no exit after SIGTERM\n%s", logs.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "cal.db")); err != nil {
		t.Errorf("bolt file not where EVENTCAL_DB says: %v", err)
	}
}
