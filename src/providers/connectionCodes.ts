// What a connection test found, as a stable code with parameters: the panel and the settings tab
// show it in the person's language; `message` keeps the English for scripts and the terminal.

export const CONNECTION_CODES = [
	/** Params: provider, model. */
	"connected",
	/** The server lists no models, so the model could not be checked. Params: provider, model. */
	"connected_unlisted",
	/** No model chosen yet. Params: provider, models (ids, comma separated; may be ""). */
	"choose_model",
	/** Ollama runs but lacks the model. Params: model. */
	"model_not_downloaded",
	/** The server's list lacks the model. Params: model, models. */
	"model_not_listed",
	/** The test was stopped. */
	"stopped",
	/** Ollama refused the app's origin. Params: origin. */
	"origin_refused",
	/** The server sent nothing for too long (the transport's words in `said`). */
	"timed_out",
	/** Nothing answers at the address. Params: provider, origin. */
	"unreachable",
	/** The key was refused (the server's words in `said`). */
	"auth_rejected",
	/** No model list where expected. Params: origin, url. */
	"no_model_list",
	/** The server answered with an error. Params: status (may be absent); its words in `said`. */
	"server_error",
] as const;

export type ConnectionCode = (typeof CONNECTION_CODES)[number];
