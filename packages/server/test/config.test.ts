import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../src/config/config.js";

describe("configuration from the environment", () => {
  it("has embedded defaults: 127.0.0.1:8080, ./data, 60 a minute, 7 days", () => {
    const config = parseConfig({}, "/srv/fangyan");
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      dataDir: "/srv/fangyan/data",
      databaseFile: "/srv/fangyan/data/fangyan.db",
      audioDir: "/srv/fangyan/data/audio",
      publicUrl: "http://127.0.0.1:8080",
      audioBaseUrl: "http://127.0.0.1:8080/audio",
      rateLimitPerMinute: 60,
      authFailuresPerMinute: 30,
      audioRetentionDays: 7,
      adminToken: undefined,
      demo: true,
    });
  });

  it("derives the audio host from the public URL unless it is given", () => {
    expect(parseConfig({ FANGYAN_PUBLIC_URL: "https://tts.example.com/" }).audioBaseUrl).toBe("https://tts.example.com/audio");
    expect(
      parseConfig({ FANGYAN_PUBLIC_URL: "https://tts.example.com", FANGYAN_AUDIO_BASE_URL: "https://cdn.example.com/a" }).audioBaseUrl,
    ).toBe("https://cdn.example.com/a");
  });

  it("reads every setting", () => {
    const config = parseConfig(
      {
        FANGYAN_HOST: "0.0.0.0",
        FANGYAN_PORT: "9000",
        FANGYAN_DATA_DIR: "/var/lib/fangyan",
        FANGYAN_RATE_LIMIT_PER_MINUTE: "120",
        FANGYAN_AUDIO_RETENTION_DAYS: "30",
        FANGYAN_ADMIN_TOKEN: "a-long-enough-admin-token",
        FANGYAN_DEMO: "0",
        FANGYAN_TRUST_PROXY: "1",
      },
      "/",
    );
    expect(config).toMatchObject({
      host: "0.0.0.0",
      port: 9000,
      publicUrl: "http://127.0.0.1:9000",
      dataDir: path.resolve("/var/lib/fangyan"),
      rateLimitPerMinute: 120,
      audioRetentionDays: 30,
      adminToken: "a-long-enough-admin-token",
      demo: false,
      trustProxy: true,
    });
  });

  it("treats an empty variable as unset", () => {
    expect(parseConfig({ FANGYAN_PORT: "" }).port).toBe(8080);
  });

  it.each([
    ["FANGYAN_PORT", "http"],
    ["FANGYAN_PORT", "65536"],
    ["FANGYAN_PUBLIC_URL", "ftp://x"],
    ["FANGYAN_AUDIO_BASE_URL", "not a url"],
    ["FANGYAN_RATE_LIMIT_PER_MINUTE", "1.5"],
    ["FANGYAN_AUDIO_RETENTION_DAYS", "0"],
    ["FANGYAN_DEMO", "maybe"],
    ["FANGYAN_LOG_LEVEL", "loud"],
  ])("names %s when it is %j", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it("never repeats the admin token in its error", () => {
    const attempt = () => parseConfig({ FANGYAN_ADMIN_TOKEN: "has space in it and is long" });
    expect(attempt).toThrow(/FANGYAN_ADMIN_TOKEN/);
    expect(attempt).not.toThrow(/has space/);
  });

  it("chooses the cluster backends only when they are named", () => {
    const single = parseConfig({}, "/srv");
    expect(single.database).toEqual({ kind: "sqlite", file: "/srv/data/fangyan.db" });
    expect(single.redis).toBeUndefined();
    expect(single.s3).toBeUndefined();
    const cluster = parseConfig(
      {
        FANGYAN_DATABASE_URL: "postgres://fangyan:secret@db:5432/fangyan",
        FANGYAN_REDIS_URL: "redis://cache:6379",
        FANGYAN_S3_BUCKET: "audio-bucket",
        FANGYAN_S3_ENDPOINT: "http://minio:9000",
        FANGYAN_S3_FORCE_PATH_STYLE: "1",
        FANGYAN_S3_ACCESS_KEY_ID: "id",
        FANGYAN_S3_SECRET_ACCESS_KEY: "secret",
      },
      "/srv",
    );
    expect(cluster.database).toEqual({ kind: "postgres", url: "postgres://fangyan:secret@db:5432/fangyan" });
    expect(cluster.redis).toEqual({ url: "redis://cache:6379", prefix: "fangyan:" });
    expect(cluster.s3).toMatchObject({ bucket: "audio-bucket", endpoint: "http://minio:9000", forcePathStyle: true, prefix: "audio/" });
    expect(parseConfig({ FANGYAN_DATABASE_URL: "sqlite:other.db" }, "/srv").database).toEqual({ kind: "sqlite", file: "/srv/other.db" });
  });

  it.each([
    ["FANGYAN_REDIS_URL", "localhost:6379"],
    ["FANGYAN_S3_ENDPOINT", "minio:9000"],
    ["FANGYAN_SYNTHESIS_QUEUE", "0"],
  ])("names %s when it is %j", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it("never repeats a database password in its error", () => {
    expect(() => parseConfig({ FANGYAN_DATABASE_URL: "postgres://u:hunter2@db/x", FANGYAN_PORT: "x" })).not.toThrow(/hunter2/);
  });
});
