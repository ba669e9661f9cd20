// The comments that ship in dist/ speak to users: they may point to a URL, never to a file of
// this repository (a module by its file name, a test, a guide by its docs/ path) or to an issue,
// since users have none of them. The build checks the JavaScript it writes (esbuild keeps the
// comments inside functions); `node scripts/shipped-comments.mjs dist` checks the declarations
// too, once tsc has written them. TypeScript's parser finds the comments (a `//` inside a string,
// a template or a regular expression is none); each one that breaks the rule is named by file
// and line.

import { readdir, readFile } from "node:fs/promises";
import ts from "typescript";

/** What a shipped comment may not name: a repository path, a source or guide file, an issue. */
const POINTER =
  /\b(?:src|test|tests|bench|scripts|docs|examples|\.ci)\/[\w./-]+|(?<![\w@/.-])[\w-]+\.(?:test\.)?(?:ts|mts|md)\b|\bissues? #?\d+|\bthis round\b/i;

/** The comments of a JavaScript or declaration file, each with the line it starts on. */
export function commentsOf(name, text) {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false);
  const seen = new Map();
  const collect = (ranges) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(file);
  collect(ts.getLeadingCommentRanges(text, file.endOfFileToken.pos));
  return [...seen].map(([pos, comment]) => ({
    text: comment,
    line: file.getLineAndCharacterOfPosition(pos).line + 1,
  }));
}

/** The comments of the files under `dir` named like `files` that name what users do not have. */
export async function pointers(dir, files = /\.(?:js|d\.ts)$/) {
  const names = await readdir(dir, { recursive: true });
  const found = [];
  for (const name of names.filter((file) => files.test(file))) {
    const text = await readFile(`${dir}/${name}`, "utf8");
    for (const comment of commentsOf(name, text)) {
      // A URL is fine, and so is a file of the user's own in an example's code.
      const bare = comment.text
        .replace(/```[\s\S]*?```/g, "")
        .replace(/https?:\/\/\S+/g, "")
        .replace(/^\/\/# sourceMappingURL=.*/, "");
      if (POINTER.test(bare)) found.push(`${dir}/${name}:${comment.line}: ${comment.text.trim()}`);
    }
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = await pointers(process.argv[2] ?? "dist");
  for (const line of found) console.error(line);
  if (found.length > 0) {
    console.error(`${found.length} shipped comment(s) name a file users do not have, or an issue`);
    process.exitCode = 1;
  }
}
