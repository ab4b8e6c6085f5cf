// A page for a Chromium bench: an HTML shell that loads `page.js`, served on 127.0.0.1 (an ephemeral port).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export async function servePage(title: string, pageJs: string): Promise<{ url: string; server: Server }> {
	const files: Record<string, [string, string]> = {
		"/": ["text/html", `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body class="theme-light"><script src="/page.js"></script></body></html>`],
		"/page.js": ["text/javascript", pageJs],
	};
	const server = createServer((req, res) => {
		const entry = files[(req.url ?? "/").split("?")[0] ?? "/"];
		if (!entry) return void res.writeHead(404).end();
		res.writeHead(200, { "content-type": `${entry[0]}; charset=utf-8` }).end(entry[1]);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
