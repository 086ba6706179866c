// The world of the smoke tests that run the BUILT executable against the fake Twilio: a private copy of the
// executable with its own data folder, and a fake Twilio, made before the file's tests and removed after them.
import { afterAll, beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import { type FakeTwilio, startFakeTwilio } from "./fake-twilio.ts";
import { privateBinary } from "./server.ts";

export interface FakeTwilioBinary {
  fake: FakeTwilio;
  /** The temporary folder holding the copy and its data folder. */
  work: string;
  bin: string;
  dataDir: string;
}

/** Registers the beforeAll/afterAll that make and remove the world; its fields are set once beforeAll has run. */
export function useFakeTwilioBinary(prefix: string, options: { latencyMs?: number } = {}): FakeTwilioBinary {
  const world = {} as FakeTwilioBinary;
  beforeAll(() => {
    world.fake = startFakeTwilio();
    if (options.latencyMs !== undefined) world.fake.latencyMs = options.latencyMs;
    Object.assign(world, privateBinary(prefix));
  });
  afterAll(async () => {
    await world.fake.stop();
    rmSync(world.work, { recursive: true, force: true });
  });
  return world;
}
