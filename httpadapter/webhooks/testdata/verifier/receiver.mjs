// A webhook receiver built on the Standard Webhooks reference library, used
// by the Go tests of package webhooks. It listens on 127.0.0.1 (a free port,
// printed as "listening PORT"), verifies every POST /hook/NAME with the secret
// given for NAME in the SECRETS environment variable (a JSON object), answers
// 204 when the library accepts the delivery and 400 with the library's error
// when it rejects it, and reports what it saw on GET /log. POST /sign/NAME
// signs {id, timestamp, payload} with the library so Go can check its own
// Verify against it. It exits when its standard input closes.
import http from "node:http";
import swh from "standardwebhooks";

const { Webhook } = swh;
const secrets = JSON.parse(process.env.SECRETS || "{}");
const hooks = Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, new Webhook(v)]));
const accepted = [];
const rejected = [];

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const server = http.createServer(async (req, res) => {
  const body = await readBody(req);
  const [, route, name] = req.url.split("/");
  if (req.method === "GET" && route === "log") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ accepted, rejected }));
    return;
  }
  const wh = hooks[name];
  if (req.method !== "POST" || !wh) {
    res.writeHead(404);
    res.end();
    return;
  }
  if (route === "sign") {
    const m = JSON.parse(body);
    const signature = wh.sign(m.id, new Date(m.timestamp * 1000), m.payload);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ signature }));
    return;
  }
  if (route !== "hook") {
    res.writeHead(404);
    res.end();
    return;
  }
  try {
    const msg = wh.verify(body, req.headers);
    accepted.push({ name, id: req.headers["webhook-id"], type: msg.type, seq: msg.data.seq });
    res.writeHead(204);
    res.end();
  } catch (err) {
    rejected.push({ name, id: req.headers["webhook-id"] || "", error: String(err.message) });
    res.writeHead(400, { "content-type": "text/plain" });
    res.end(String(err.message));
  }
});

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
