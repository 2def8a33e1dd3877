/** The pdf.js build that runs in Node without a DOM, a canvas or a worker file of our own. */
export type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

let loading: Promise<PdfJs> | undefined;

/**
 * pdf.js, imported on first use so commands that never meet a PDF do not pay for it. While the
 * module evaluates it may warn that optional canvas polyfills are missing (they only matter for
 * rendering); those "Warning: …" lines are held back for the duration of the import.
 */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= quietly(() => import("pdfjs-dist/legacy/build/pdf.mjs"));
  return loading;
}

async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("Warning: ")) return;
    warn.apply(console, args);
  };
  try {
    return await load();
  } finally {
    console.warn = warn;
  }
}

/**
 * Options for getDocument: errors-only logging, no eval, no font loading, no wasm decoders (text
 * extraction needs none of them), and recover what can be recovered from damaged files. The
 * data is copied: pdf.js takes ownership of (detaches) the buffer it is given and refuses Node
 * Buffers.
 */
export function documentOptions(pdfjs: PdfJs, body: Uint8Array) {
  return {
    data: new Uint8Array(body),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWasm: false,
    enableXfa: false,
    stopAtErrors: false,
  };
}
