/** Vite's `?raw` imports: a file's text, bundled into the test (schema-sql.test.ts reads schema.sql so). */
declare module '*?raw' {
  const text: string;
  export default text;
}
