import { CST, isAlias, isCollection, isMap, isPair, isScalar, isSeq, Lexer, type Node } from "yaml";

/** Nesting past this is hostile or broken input; nothing legitimate comes close. */
export const MAX_DEPTH = 64;

/** A structural problem found before the document is converted to data. */
export interface Finding {
  offset: number;
  code: "too-deep" | "complex-key";
  message: string;
  hint?: string;
}

const TOO_DEEP_MESSAGE = `values are nested more than ${MAX_DEPTH} levels deep`;
const TOO_DEEP_HINT = "a pipeline needs a few levels of nesting; look for runaway brackets or indentation";

export function tooDeep(offset: number): Finding {
  return { offset, code: "too-deep", message: TOO_DEEP_MESSAGE, hint: TOO_DEEP_HINT };
}

/**
 * Scans the tokens before parsing for nesting that is certainly too deep. The YAML composer
 * recurses per level and its tree builder slows down with depth, so a megabyte of `[` must never
 * reach them. Counted: flow brackets, plus the block collections opened on the line where the
 * flow starts (each `- `, each `? `, and a `key:` not already opened by `? `). The count is a
 * lower bound of the real depth, so this never refuses a file that the full check accepts.
 */
export function scanDepth(text: string): Finding | undefined {
  let offset = 0;
  let flow = 0;
  /** Block collections opened on the current line, and the last indicator that opened one. */
  let block = 0;
  let last: string | undefined;
  let scalarNext = false;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    const at = offset;
    if (type !== "doc-mode" && type !== "flow-error-end" && type !== "scalar") offset += token.length;
    if (scalarNext) {
      scalarNext = false;
      continue;
    }
    switch (type) {
      case "scalar":
        scalarNext = true;
        continue;
      case "newline":
        if (flow === 0) {
          block = 0;
          last = undefined;
        }
        continue;
      case "flow-map-start":
      case "flow-seq-start":
        flow++;
        break;
      case "flow-map-end":
      case "flow-seq-end":
        flow = Math.max(0, flow - 1);
        continue;
      case "flow-error-end":
        // The lexer gave up on unclosed brackets (a syntax error the parser reports) and is back
        // in block context on a new line.
        flow = 0;
        block = 0;
        last = undefined;
        continue;
      case "seq-item-ind":
      case "explicit-key-ind":
        if (flow > 0) continue;
        block++;
        last = type;
        break;
      case "map-value-ind":
        if (flow > 0) continue;
        if (last !== "explicit-key-ind") block++;
        last = type;
        break;
      default:
        continue;
    }
    if (flow + block > MAX_DEPTH) return tooDeep(at);
  }
  return undefined;
}

type Frame = { node: unknown; depth: number; key: boolean; inKey: boolean; exit?: false } | { node: Node; exit: true };

/**
 * Walks the parsed document without recursion. Refuses keys that are mappings, lists or aliases
 * of either (a pipeline's keys are names; the YAML library would turn such keys into strings, at
 * a cost that grows with the fourth power of their depth), and nesting deeper than MAX_DEPTH,
 * counted through keys, values and what aliases expand to.
 */
export function checkStructure(root: Node): Finding[] {
  const findings: Finding[] = [];
  /** Collection height (levels of mappings and lists) of each anchored node, by anchor name. */
  const anchors = new Map<string, number>();
  /** Height of each finished node, read by its parent when it finishes. */
  const height = new Map<unknown, number>();
  let deep: Finding | undefined;
  const stack: Frame[] = [{ node: root, depth: 1, key: false, inKey: false }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const node = frame.node;
    if (frame.exit) {
      const h = 1 + childrenOf(frame.node).reduce<number>((m, c) => Math.max(m, height.get(c) ?? 0), 0);
      height.set(node, h);
      if (frame.node.anchor) anchors.set(frame.node.anchor, h);
      continue;
    }
    const { depth, key, inKey } = frame;
    if (key && !inKey) {
      const refused = complexKey(node, anchors);
      if (refused) findings.push(refused);
    }
    if (isAlias(node)) {
      const h = anchors.get(node.source) ?? 0;
      height.set(node, h);
      if (!deep && h > 0 && depth + h - 1 > MAX_DEPTH) deep = tooDeepAlias(node);
      continue;
    }
    if (!isCollection(node)) {
      height.set(node, 0);
      if (isScalar(node) && node.anchor) anchors.set(node.anchor, 0);
      continue;
    }
    if (depth > MAX_DEPTH) {
      deep ??= tooDeep(startOf(node));
      height.set(node, 1);
      continue;
    }
    stack.push({ node, exit: true });
    const children: Frame[] = [];
    for (const item of node.items) {
      if (isPair(item)) {
        const inner = inKey || key;
        if (item.key !== null) children.push({ node: item.key, depth: depth + 1, key: true, inKey: inner });
        if (item.value !== null) children.push({ node: item.value, depth: depth + 1, key: false, inKey: inner });
      } else {
        children.push({ node: item, depth: depth + 1, key: false, inKey: inKey || key });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return deep ? [...findings, deep] : findings;
}

function childrenOf(node: Node): unknown[] {
  if (!isCollection(node)) return [];
  return node.items.flatMap((item) => (isPair(item) ? [item.key, item.value] : [item]));
}

/** Where a node starts; a block mapping's own range begins after its first key. */
function startOf(node: unknown): number {
  let start = (node as Node).range?.[0] ?? 0;
  let first: unknown = node;
  while (isMap(first) && isPair(first.items[0]) && first.items[0].key) {
    first = first.items[0].key;
    start = Math.min(start, (first as Node).range?.[0] ?? start);
  }
  return start;
}

function tooDeepAlias(node: Node): Finding {
  return { ...tooDeep(startOf(node)), message: `${TOO_DEEP_MESSAGE} once this alias is expanded` };
}

function complexKey(key: unknown, anchors: ReadonlyMap<string, number>): Finding | undefined {
  const hint = "keys are plain names such as `url` or `formats`; put the structure in the value";
  if (isAlias(key)) {
    // An alias of a name is a name; an alias of a mapping or list is a structured key.
    if ((anchors.get(key.source) ?? 0) === 0) return undefined;
    return { offset: startOf(key), code: "complex-key", message: `a key must be a name, not an alias of a mapping or list (*${key.source})`, hint };
  }
  if (!isCollection(key)) return undefined;
  return { offset: startOf(key), code: "complex-key", message: `a key must be a name, not ${isSeq(key) ? "a list" : "a mapping"}`, hint };
}
