// A page for a Chromium bench: an HTML shell that loads `page.js`, served on 127.0.0.1 (an ephemeral
// port), with any other files the bench serves beside it (by URL path: type and content).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export async function servePage(title: string, pageJs: string, more: Record<string, [string, string | Uint8Array]> = {}): Promise<{ url: string; server: Server }> {
	const files: Record<string, [string, string | Uint8Array]> = {
		...more,
		"/": ["text/html", `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body class="theme-light"><script src="/page.js"></script></body></html>`],
		"/page.js": ["text/javascript", pageJs],
	};
	const server = createServer((req, res) => {
		const entry = files[(req.url ?? "/").split("?")[0] ?? "/"];
		if (!entry) return void res.writeHead(404).end();
		res.writeHead(200, { "content-type": typeof entry[1] === "string" ? `${entry[0]}; charset=utf-8` : entry[0] }).end(entry[1]);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
