module example.com/fencesample

go 1.26.0
