/**
 * Reads CSV as RFC 4180 writes it, and as spreadsheets export it: fields
 * separated by commas, quoted with double quotes when they hold a comma, a
 * quote (doubled) or a line break; records ended by CRLF or LF; a byte-order
 * mark at the start ignored. Answers the records, each a list of fields, with
 * the line each record starts on (1 for the first).
 */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    fields.push(field);
    // A blank line is no record.
    if (fields.length > 1 || fields[0] !== "") records.push({ line: recordLine, fields });
    fields = [];
    field = "";
  };
  for (; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index++;
        } else quoted = false;
      } else {
        if (char === "\n") line++;
        field += char;
      }
    } else if (char === '"' && field === "") quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[index + 1] === "\n") index++;
      endRecord();
      line++;
      recordLine = line;
    } else field += char;
  }
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}
