// setupFiles of the projects whose files share their worker's modules ("engine", "dom" in
// vitest.config.ts): before each file, the module state of src/ and the test runtime as at first
// import. Caches of pure results (tokenizers, number formats, parsed catalogues) stay: a file
// cannot tell them from new ones. A file that replaces one of these modules (vi.mock) runs in
// the "isolated" project, where every module is imported afresh instead.
import { installDomHelpers } from "../obsidian/dom";
import { resetRuntime } from "../obsidian/harness";
import { setLanguage } from "../../src/i18n/translate";
import { forgetModelLists } from "../../src/ui/panel/modelList";
import { forgetCountFailures } from "../../src/providers/promptCount";
import { clearPassageCache } from "../../src/context/passageCache";
import { resetTransportCache } from "../../src/wiring/adapterFactory";

// vitest gives each file a new happy-dom window: Obsidian's DOM helpers go on it (activeDocument is
// the new document). The runtime installs them itself only when first imported.
if (typeof window !== "undefined") installDomHelpers(window);
resetRuntime();
setLanguage("en", "");
forgetModelLists();
forgetCountFailures();
clearPassageCache();
resetTransportCache();
