/** The uploads module's public surface: what app.ts and other modules may import (server/README.md). */

export { fileFromLink } from './link-file';
export { uploadsRoutes } from './uploads.routes';
export {
  accountFileOpener,
  bytesOut,
  deleteStoredJob,
  findUpload,
  keptFileName,
  loadUpload,
  makeUploadRoom,
  releaseFiles,
  saveUpload,
} from './uploads.service';
