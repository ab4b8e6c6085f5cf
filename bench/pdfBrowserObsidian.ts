// The `obsidian` module for bench/pdfBrowser.ts's page: the in-memory runtime of the tests, with a
// `loadPdfJs()` that does what Obsidian's does: loads its pdf.js once, on the first call (here
// pdfjs-dist's build/pdf.mjs, served by the bench), points it at its worker script, and hands back
// the library (also as `window.pdfjsLib`). The panel's and the index's PDF code then run unchanged,
// through their own `obsidianPdfOpener`.
export * from "../tests/obsidian/index";

declare global {
	interface Window {
		pdfjsLib?: unknown;
	}
}

/** Where the bench's page serves pdfjs-dist's build. */
export const PDFJS_URL = "/pdfjs/pdf.mjs";
export const PDFJS_WORKER_URL = "/pdfjs/pdf.worker.mjs";

/** What the bench puts between the app's code and pdf.js (its clocks); the library itself when unset. */
export const pdfJsHooks: { wrap?: (lib: unknown) => unknown } = {};

let loading: Promise<unknown> | undefined;

export async function loadPdfJs(): Promise<unknown> {
	loading ??= (async (): Promise<unknown> => {
		// A module URL only the page knows (esbuild leaves an import of a variable alone).
		const url = PDFJS_URL;
		// eslint-disable-next-line no-unsanitized/method -- a fixed URL of the bench's own page server
		const lib = (await import(url)) as { GlobalWorkerOptions: { workerSrc: string } };
		lib.GlobalWorkerOptions.workerSrc = PDFJS_WORKER_URL;
		window.pdfjsLib = lib;
		return lib;
	})();
	const lib = await loading;
	return pdfJsHooks.wrap ? pdfJsHooks.wrap(lib) : lib;
}
