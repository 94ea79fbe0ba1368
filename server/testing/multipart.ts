/** A multipart/form-data body with one file, as a browser uploads it (for `app.inject`). */
export function multipart(filename: string, data: Buffer | string, field = 'file') {
  const boundary = '----disparo-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, typeof data === 'string' ? Buffer.from(data) : data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
