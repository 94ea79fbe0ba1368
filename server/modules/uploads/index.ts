/** The uploads module's public surface: what app.ts and other modules may import (server/README.md). */

export { moveLegacyImagesChore } from './legacy-images';
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
  releaseAccountsFiles,
  releaseFiles,
  saveUpload,
} from './uploads.service';
