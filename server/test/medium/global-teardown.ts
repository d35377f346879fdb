export default async function globalTeardown(): Promise<void> {
  await globalThis.mediumServer?.drop();
}
