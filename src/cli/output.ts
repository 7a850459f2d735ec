/** Where a command writes: results to `out` (stdout), progress and notes to `err` (stderr). */
export type Output = { out: (text: string) => void; err: (text: string) => void; interactive: boolean };

export const stdio: Output = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
};

/**
 * A progress line on stderr: on a terminal it is rewritten in place (finish with `done()`),
 * elsewhere (a pipe, a log) each update is a line of its own.
 */
export function progress(output: Output) {
  let open = false;
  return {
    update(text: string) {
      if (output.interactive) {
        output.err(`\r\x1b[K${text}`);
        open = true;
      } else output.err(`${text}\n`);
    },
    done() {
      if (open) output.err('\n');
      open = false;
    },
  };
}
