-- name: GetJob :one
SELECT id, state, fence FROM jobs WHERE id = $1;

-- name: FinishJob :exec
UPDATE jobs SET state = $2 WHERE id = $1;

-- name: FinishJobFenced :execrows
UPDATE jobs SET state = $2, fence = $3 WHERE id = $1 AND fence < $3;

-- name: ClaimJob :one
UPDATE jobs SET owner = $2, fence = $3 WHERE id = $1 AND fence < $3
RETURNING id, state;

-- name: DeleteJob :execrows
DELETE FROM jobs WHERE id = $1;
