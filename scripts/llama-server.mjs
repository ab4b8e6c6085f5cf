#!/usr/bin/env node
// llama.cpp's own server, built from the source the npm package node-llama-cpp ships, for tests
// against a real model server (`npm run test:real`). Everything comes from the npm registry:
//   1. `npm pack node-llama-cpp@<pinned>`, its sha512 checked against the registry's integrity;
//   2. its git bundle (package/llama/gitRelease.bundle) cloned;
//   3. only the `llama-server` target built with CMake, into
//      ~/.cache/discover/llama-server/<llama.cpp commit>/ (a second run reuses it).
// Usage:
//   node scripts/llama-server.mjs build          build (or reuse) and print the binary's path
//   node scripts/llama-server.mjs path           print the binary's path if built, else exit 1
//   node scripts/llama-server.mjs start [-c N]   start on 127.0.0.1 on a free port; prints JSON {pid, port, url}
//   node scripts/llama-server.mjs stop <pid>     stop a server started by `start`
// As a module: `ensureLlamaServer()`, `startLlamaServer({ ctx })` → { url, port, pid, stop() }.
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE = "node-llama-cpp";
export const VERSION = "3.21.1";
/** The llama.cpp commit the pinned package's bundle holds (checked after the clone). */
export const LLAMA_COMMIT = "80fb11ac73e66d89eae2c6a91d8a77428fa733ed";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const MODEL = join(ROOT, "tests/fixtures/models/tiny-chat-qwen2tok.gguf");
export const CACHE = join(process.env.DISCOVER_CACHE ?? join(homedir(), ".cache", "discover"), "llama-server", LLAMA_COMMIT);
export const BINARY = join(CACHE, "llama-server");

const CMAKE_FLAGS = [
	"-DCMAKE_BUILD_TYPE=Release",
	"-DLLAMA_BUILD_TESTS=OFF",
	"-DLLAMA_BUILD_EXAMPLES=OFF",
	// Without this the build downloads its web UI, which fails without a network.
	"-DLLAMA_USE_PREBUILT_UI=OFF",
	"-DLLAMA_BUILD_UI=OFF",
	"-DLLAMA_OPENSSL=OFF",
	"-DLLAMA_CURL=OFF",
	"-DBUILD_SHARED_LIBS=OFF",
	"-DGGML_NATIVE=ON",
];

const log = (msg) => process.stderr.write(`[llama-server] ${msg}\n`);

class SetupError extends Error {}

function need(cmd, args, install) {
	const r = spawnSync(cmd, args, { encoding: "utf8" });
	if (r.error || r.status !== 0) throw new SetupError(`${cmd} is missing or does not run. Install it first: ${install}`);
}

function checkTools() {
	const apt = "apt-get update && apt-get install -y --no-install-recommends cmake g++ make git";
	need("git", ["--version"], apt);
	need("cmake", ["--version"], apt);
	need("c++", ["--version"], apt);
	need("make", ["--version"], apt);
}

async function sha512(path) {
	const hash = createHash("sha512");
	for await (const chunk of createReadStream(path)) hash.update(chunk);
	return `sha512-${hash.digest("base64")}`;
}

function run(cmd, args, opts = {}) {
	const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...opts });
	if (r.error) throw r.error;
	if (r.status !== 0) throw new SetupError(`${cmd} ${args.join(" ")} failed with exit code ${r.status}`);
}

/** Fetches the pinned tarball, checks it against the registry's integrity, returns the extracted bundle's path. */
async function fetchBundle(work) {
	const expected = execFileSync("npm", ["view", `${PACKAGE}@${VERSION}`, "dist.integrity"], { encoding: "utf8" }).trim();
	if (!expected.startsWith("sha512-")) throw new SetupError(`the registry gave no sha512 integrity for ${PACKAGE}@${VERSION} (got "${expected}")`);
	log(`npm pack ${PACKAGE}@${VERSION}`);
	const name = execFileSync("npm", ["pack", `${PACKAGE}@${VERSION}`, "--silent", "--pack-destination", work], { encoding: "utf8" }).trim().split("\n").pop();
	const tarball = join(work, name);
	const actual = await sha512(tarball);
	if (actual !== expected) throw new SetupError(`${tarball}: integrity ${actual} does not match the registry's ${expected}`);
	log(`integrity checked (${expected.slice(0, 24)}…)`);
	run("tar", ["-xzf", tarball, "-C", work, "package/llama/gitRelease.bundle"]);
	return join(work, "package/llama/gitRelease.bundle");
}

/** Builds llama-server into the cache unless it is there; returns its path. */
export async function ensureLlamaServer() {
	if (existsSync(BINARY)) return BINARY;
	checkTools();
	const started = Date.now();
	mkdirSync(dirname(CACHE), { recursive: true });
	const work = mkdtempSync(join(tmpdir(), "discover-llama-"));
	try {
		const bundle = await fetchBundle(work);
		const src = join(work, "llama.cpp");
		run("git", ["clone", "--quiet", bundle, src]);
		const head = execFileSync("git", ["-C", src, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
		if (head !== LLAMA_COMMIT) throw new SetupError(`the bundle holds llama.cpp ${head}, expected ${LLAMA_COMMIT}`);
		const build = join(work, "build");
		log(`configuring llama.cpp ${head.slice(0, 10)}`);
		run("cmake", ["-S", src, "-B", build, ...CMAKE_FLAGS]);
		const jobs = String(Math.max(1, cpus().length));
		log(`building llama-server with ${jobs} jobs (about half an hour on 2 cores)`);
		run("cmake", ["--build", build, "--target", "llama-server", "-j", jobs]);
		const built = join(build, "bin", "llama-server");
		if (!existsSync(built)) throw new SetupError(`the build finished but ${built} is missing`);
		mkdirSync(CACHE, { recursive: true });
		const tmp = `${BINARY}.tmp-${process.pid}`;
		writeFileSync(tmp, readFileSync(built), { mode: 0o755 });
		renameSync(tmp, BINARY);
		writeFileSync(join(CACHE, "BUILD.txt"), `${PACKAGE}@${VERSION}\nllama.cpp ${head}\nbuilt in ${Math.round((Date.now() - started) / 1000)} s\n`);
		log(`built in ${Math.round((Date.now() - started) / 1000)} s: ${BINARY}`);
		return BINARY;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

function freePort() {
	return new Promise((res, rej) => {
		const srv = createServer();
		srv.once("error", rej);
		srv.listen(0, "127.0.0.1", () => {
			const { port } = srv.address();
			srv.close(() => res(port));
		});
	});
}

async function waitHealthy(url, child, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new SetupError(`llama-server exited with code ${child.exitCode} before it was ready`);
		try {
			const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
			if (r.ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new SetupError(`llama-server did not answer /health within ${timeoutMs} ms`);
}

/**
 * Starts llama-server on 127.0.0.1 on a free port with the test model. `ctx`: its context size;
 * `threads`: 1 by default (2 threads collapse when another process holds a core).
 */
export async function startLlamaServer({ ctx = 2048, threads = 1, extraArgs = [], detached = false, logFile } = {}) {
	const binary = await ensureLlamaServer();
	if (!existsSync(MODEL)) throw new SetupError(`the test model is missing: ${MODEL}`);
	const port = await freePort();
	const args = ["-m", MODEL, "--host", "127.0.0.1", "--port", String(port), "-c", String(ctx), "-np", "1", "-t", String(threads), "--no-webui", "--metrics", "--slots", ...extraArgs];
	const child = spawn(binary, args, { stdio: ["ignore", logFile ? "pipe" : "ignore", logFile ? "pipe" : "ignore"], detached });
	if (logFile) {
		const chunks = [];
		child.stdout.on("data", (c) => chunks.push(c));
		child.stderr.on("data", (c) => chunks.push(c));
		child.on("exit", () => writeFileSync(logFile, Buffer.concat(chunks)));
	}
	const url = `http://127.0.0.1:${port}`;
	try {
		await waitHealthy(url, child, 30_000);
	} catch (err) {
		child.kill("SIGKILL");
		throw err;
	}
	return {
		url,
		port,
		pid: child.pid,
		child,
		async stop() {
			if (child.exitCode !== null) return;
			const exited = new Promise((r) => child.once("exit", r));
			child.kill("SIGTERM");
			const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
			await exited;
			clearTimeout(timer);
		},
	};
}

async function main() {
	const [cmd, ...rest] = process.argv.slice(2);
	try {
		if (cmd === "build") {
			const t = Date.now();
			const path = await ensureLlamaServer();
			log(`ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
			process.stdout.write(`${path}\n`);
		} else if (cmd === "path") {
			if (!existsSync(BINARY)) process.exit(1);
			process.stdout.write(`${BINARY}\n`);
		} else if (cmd === "start") {
			const i = rest.indexOf("-c");
			const ctx = i >= 0 ? Number(rest[i + 1]) : 2048;
			const server = await startLlamaServer({ ctx, detached: true });
			server.child.unref();
			process.stdout.write(`${JSON.stringify({ pid: server.pid, port: server.port, url: server.url })}\n`);
			process.exit(0);
		} else if (cmd === "stop") {
			process.kill(Number(rest[0]), "SIGTERM");
		} else {
			process.stderr.write("usage: node scripts/llama-server.mjs build | path | start [-c N] | stop <pid>\n");
			process.exit(2);
		}
	} catch (err) {
		process.stderr.write(`llama-server: ${err instanceof Error ? err.message : String(err)}\n`);
		process.exit(1);
	}
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
