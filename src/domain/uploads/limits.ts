// The server's upload limits (its settings of the same names), enforced by POST /user_uploads and
// the avatar upload and reported by POST /register.

/** The server setting MAX_FILE_UPLOAD_SIZE: POST /user_uploads refuses larger files. */
export const MAX_FILE_UPLOAD_SIZE_MIB = 25;

/** The server setting MAX_AVATAR_FILE_SIZE_MIB: larger avatars are refused. */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
