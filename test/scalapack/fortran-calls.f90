! fortran-calls.f90 - pdgemr2d, pdtrmr2d and pdtran from Fortran.
!
!   mpirun -np 4 fortran-calls-scalapack   (ScaLAPACK's own routines)
!   mpirun -np 4 fortran-calls-redist      (libredist_scalapack first)
!
! An unchanged Fortran ScaLAPACK program, linked twice: it copies a
! sub-matrix from a 2x2 grid to a 1x4 grid (pdgemr2d), a trapezoid back
! (pdtrmr2d, UPLO 'U', DIAG 'N') and C := 0.5 C + 2 A**T on the 2x2 grid
! (pdtran, twice: the second call reuses the plan). After each call process
! 0 prints every process's checksum of its whole local target array, so the
! two outputs are equal exactly when the results are.
program fortran_calls
  implicit none
  include 'mpif.h'
  integer :: ierr, me, nprocs, sys, g22, g14, i, j, info, rep
  integer :: nprow, npcol, myrow, mycol, lr, lc, ld
  integer :: desca(9), descb(9), descc(9)
  double precision, allocatable :: a(:), b(:), c(:)
  integer, external :: numroc

  call mpi_init(ierr)
  call blacs_pinfo(me, nprocs)
  if (nprocs /= 4) then
    if (me == 0) write (0, *) 'fortran-calls: needs 4 processes'
    call mpi_abort(mpi_comm_world, 2, ierr)
  end if
  call blacs_get(-1, 0, sys)
  g22 = sys
  g14 = sys
  call blacs_gridinit(g22, 'R', 2, 2)
  call blacs_gridinit(g14, 'C', 1, 4)

  ! A: 30 x 27 in 4 x 3 blocks on the 2x2 grid, from process (1, 0).
  call blacs_gridinfo(g22, nprow, npcol, myrow, mycol)
  lr = numroc(30, 4, myrow, 1, nprow)
  lc = numroc(27, 3, mycol, 0, npcol)
  ld = max(1, lr) + 2
  call descinit(desca, 30, 27, 4, 3, 1, 0, g22, ld, info)
  allocate (a(ld * max(1, lc)), c(ld * max(1, lc)))
  do i = 1, size(a)
    a(i) = dble(mod(i * 7 + me * 13, 97)) / 8d0
    c(i) = dble(mod(i * 5 + me, 31)) - 3.5d0
  end do
  descc = desca
  ! B: 25 x 30 in 5 x 2 blocks on the 1x4 grid.
  call blacs_gridinfo(g14, nprow, npcol, myrow, mycol)
  lr = numroc(25, 5, myrow, 0, nprow)
  lc = numroc(30, 2, mycol, 1, npcol)
  ld = max(1, lr) + 1
  call descinit(descb, 25, 30, 5, 2, 0, 1, g14, ld, info)
  allocate (b(ld * max(1, lc)))
  b = -1d0

  call pdgemr2d(17, 13, a, 3, 2, desca, b, 2, 5, descb, g22)
  call report(1, b)
  call pdtrmr2d('U', 'N', 20, 11, b, 3, 4, descb, a, 5, 9, desca, g22)
  call report(2, a)
  do rep = 1, 2
    call pdtran(12, 9, 2d0, a, 4, 6, desca, 0.5d0, c, 7, 3, descc)
    call report(3, c)
  end do

  call blacs_gridexit(g22)
  call blacs_gridexit(g14)
  call mpi_finalize(ierr)

contains

  subroutine report(step, x)
    integer, intent(in) :: step
    double precision, intent(in) :: x(:)
    double precision :: sums(4), mine
    integer :: k
    mine = 0d0
    do k = 1, size(x)
      mine = mine + x(k) * dble(mod(k, 89) + 1)
    end do
    call mpi_gather(mine, 1, mpi_double_precision, sums, 1, &
                    mpi_double_precision, 0, mpi_comm_world, ierr)
    if (me == 0) then
      do k = 1, 4
        write (*, '(a, i0, a, i0, a, es24.16)') 'step ', step, ' process ', &
          k - 1, ': ', sums(k)
      end do
    end if
  end subroutine report

end program fortran_calls
