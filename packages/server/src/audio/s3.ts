import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3Settings } from "../config/config.js";
import { audioFileName, contentTypeOfKey, isAudioKey } from "./ids.js";
import { type ByteRange, formatRange } from "./range.js";
import type { AudioRead, AudioStore } from "./store.js";

/** SigV4 presigned URLs live at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 86_400;

/**
 * Audio in an S3-compatible bucket (AWS S3, MinIO, Alibaba OSS, …), shared by
 * every process of a cluster. Clients get either the audio host's URL (any
 * Fangyan process streams it from the bucket, or a CDN in front of it) or a
 * presigned GET of the bucket itself.
 */
export class S3AudioStore implements AudioStore {
  readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    private readonly baseUrl: string,
    private readonly retentionMs: number,
  ) {
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // Checksums only where S3 requires them: many S3-compatible servers reject the newer ones.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private key(id: string): string {
    if (!isAudioKey(id)) throw new Error("invalid audio id");
    return `${this.settings.prefix}${audioFileName(id)}`;
  }

  async init(): Promise<void> {}

  async put(id: string, audio: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(id),
        Body: audio,
        ContentType: contentTypeOfKey(id),
        CacheControl: `public, max-age=${Math.floor(this.retentionMs / 1000)}, immutable`,
      }),
    );
  }

  async delete(id: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id) }));
  }

  async url(id: string): Promise<string> {
    if (!this.settings.presign) return `${this.baseUrl}/${audioFileName(id)}`;
    const command = new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id) });
    return getSignedUrl(this.client, command, { expiresIn: Math.min(MAX_PRESIGN_SECONDS, Math.floor(this.retentionMs / 1000)) });
  }

  async exists(id: string): Promise<boolean> {
    if (!isAudioKey(id)) return false;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id) }));
      return Date.now() - (head.LastModified ?? new Date(0)).getTime() <= this.retentionMs;
    } catch (error) {
      if (error instanceof S3ServiceException && (error.name === "NotFound" || error.$metadata.httpStatusCode === 404)) return false;
      throw error;
    }
  }

  /** Reads a whole object or the byte range a client asked for (the bucket applies it); undefined when absent or expired. */
  async read(id: string, range: ByteRange | undefined): Promise<AudioRead | "unsatisfiable" | undefined> {
    if (!isAudioKey(id)) return undefined;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id), ...(range ? { Range: formatRange(range) } : {}) }),
      );
      const lastModified = object.LastModified ?? new Date(0);
      if (Date.now() - lastModified.getTime() > this.retentionMs) {
        (object.Body as Readable | undefined)?.destroy();
        return undefined;
      }
      return {
        status: object.ContentRange ? 206 : 200,
        body: object.Body as Readable,
        contentLength: object.ContentLength ?? 0,
        contentRange: object.ContentRange,
        lastModified,
      };
    } catch (error) {
      if (error instanceof S3ServiceException) {
        if (error.$metadata.httpStatusCode === 416) return "unsatisfiable";
        if (error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404) return undefined;
      }
      throw error;
    }
  }

  async sweep(maxAgeMs: number): Promise<number> {
    const cutoff = Date.now() - maxAgeMs;
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: this.settings.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified && object.LastModified.getTime() < cutoff) {
          await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: object.Key }));
          removed++;
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
